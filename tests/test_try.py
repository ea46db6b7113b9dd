"""`python -m verified_docs try`: a reader reproduces a page's output offline, in one command."""

from __future__ import annotations

import functools
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from conftest import ROOT, SNIPPETS
from verified_docs.scenario.load import discover_project

ANSWER_LATER = SNIPPETS / "suspension" / "answer-later"
DURABLE_HOST = ROOT / "examples" / "durable-host"


def try_(*args: str, root: Path = ROOT, cwd: Path = ROOT) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "verified_docs", "try", *args, "--root", str(root)],
        cwd=cwd,
        capture_output=True,
        timeout=300,
    )


@functools.cache
def tried(*args: str) -> subprocess.CompletedProcess[bytes]:
    """``try_(*args)`` in the repository, run once per argument list for the tests that only
    read its result (one run of answer-later's resume takes seconds)."""
    return try_(*args)


@pytest.mark.parametrize(
    ("args", "goldens"),
    [
        (
            ["suspension/answer-later"],
            [
                ANSWER_LATER / "park.py.out",
                ANSWER_LATER / "resume.py.resume-rephrased.out",
                ANSWER_LATER / "resume.py.resume.out",
                ANSWER_LATER / "client_api.py.out",
            ],
        ),
        # The short name; park runs first (resume reads what it parked) but only resume's output shows.
        (["answer-later", "--run", "resume"], [ANSWER_LATER / "resume.py.resume.out"]),
        # Eight runs of one program sharing a folder, importing a support file (tools.py).
        (["examples/durable-host", "--run", "answer"], [DURABLE_HOST / "host.py.answer.out"]),
    ],
)
def test_try_prints_the_pages_output_byte_for_byte(args: list[str], goldens: list[Path]) -> None:
    done = tried(*args)
    err = done.stderr.decode()
    assert done.returncode == 0, err
    assert done.stdout == b"".join(g.read_bytes() for g in goldens)
    for golden in goldens:
        rel = golden.relative_to(ROOT).as_posix()
        assert f"try: the same bytes as {rel}, its golden output (what a page shows of this run)\n" in err


def test_try_with_a_run_says_which_runs_went_first() -> None:
    # The same command as the short-name case above (its run is shared): the name resolves alike.
    err = tried("answer-later", "--run", "resume").stderr.decode()
    assert err.splitlines()[:3] == [
        "try: run 'park' first, its output not shown (the runs share one working directory): "
        "python snippets/suspension/answer-later/park.py",
        "try: run 'resume-rephrased' first, its output not shown (the runs share one working directory): "
        "python snippets/suspension/answer-later/resume.py ask-fa3ca410e7 staging",
        "try: run 'resume': python snippets/suspension/answer-later/resume.py ask-fa3ca410e7 staging",
    ]


def test_try_fails_at_the_golden_line_when_the_pages_output_was_edited(tmp_path: Path) -> None:
    folder = tmp_path / "snippets" / "suspension" / "answer-later"
    shutil.copytree(ANSWER_LATER, folder)
    golden = folder / "resume.py.resume.out"
    golden.write_text(golden.read_text().replace("marked ask-fa3ca410e7 answered", "marked it answered"))
    done = try_("suspension/answer-later", root=tmp_path, cwd=tmp_path)
    err = done.stderr.decode()
    assert done.returncode == 1
    # What the program printed still goes out unchanged: the reader sees the real output.
    # The run after the failed one does not run, as in the build.
    outputs = ("park.py.out", "resume.py.resume-rephrased.out", "resume.py.resume.out")
    assert done.stdout == b"".join((ANSWER_LATER / name).read_bytes() for name in outputs)
    assert (
        "snippets/suspension/answer-later/resume.py.resume.out:3: printed output differs from the golden output\n"
        in err
    ), err
    assert "    -marked it answered\n    +marked ask-fa3ca410e7 answered\n" in err
    assert err.count("`nox -s update-outputs -- --only suspension/answer-later`") == 1, err


def test_unknown_names_are_one_line_listing_the_valid_ones() -> None:
    names = sorted(s.name for s in discover_project(ROOT))
    cases = [
        (["nope"], f"unknown scenario 'nope'; valid scenarios: {', '.join(names)}"),
        (
            ["suspension/answer-later", "--run", "nope"],
            "scenario 'suspension/answer-later' has no run 'nope'; its runs: park, resume-rephrased, resume, client-api",
        ),
        (
            ["suspension/answer-later", "--serve"],
            "scenario 'suspension/answer-later' has several runs, each with its own script; choose one with --run: "
            "park, resume-rephrased, resume, client-api",
        ),
    ]
    for args, message in cases:
        done = try_(*args)
        assert (done.returncode, done.stdout, done.stderr.decode()) == (2, b"", f"verified_docs try: {message}\n")


def test_a_folder_with_no_scenarios_says_where_to_run_from(tmp_path: Path) -> None:
    done = try_("suspension/approval-gate", root=tmp_path, cwd=tmp_path)
    assert (done.returncode, done.stderr.decode()) == (
        2,
        "verified_docs try: unknown scenario 'suspension/approval-gate'; valid scenarios: (none); run it from the "
        "site's repository folder (the one with snippets/ and mkdocs.yml)\n",
    )


def test_serve_on_a_port_that_is_taken_is_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = try_("suspension/approval-gate", "--serve", "--port", str(port))
    assert (done.returncode, done.stderr.decode()) == (
        2,
        f"verified_docs try: cannot serve on 127.0.0.1:{port}: Address already in use\n",
    )


class Served:
    """``try --serve`` running in the background: the variables it printed, then its notes."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "verified_docs", "try", *args, "--serve"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self._timer = threading.Timer(120, self.proc.kill)  # never hang the suite
        self._timer.start()
        self.lines = [self.proc.stdout.readline().decode() for _ in range(2)]

    def variables(self) -> dict[str, str]:
        pairs = [line.removeprefix("export ").rstrip("\n").split("=", 1) for line in self.lines]
        return dict(pairs)

    def stop(self) -> str:
        self.proc.send_signal(signal.SIGINT)
        _, err = self.proc.communicate(timeout=60)
        self._timer.cancel()
        assert self.proc.returncode == 0, err.decode()
        return err.decode()


def test_serve_prints_the_two_variables_and_a_copy_run_against_it_prints_the_pages_output(tmp_path: Path) -> None:
    # The reader's own copy, in a folder of their own, run with nothing of the build around it.
    for name in ("park.py", "resume.py"):
        shutil.copy(ANSWER_LATER / name, tmp_path / name)
    reader_env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "VERIFIED_DOCS_", "PYTHONPATH"))}
    notes = []
    for run, argv in (("park", ["park.py"]), ("resume", ["resume.py", "ask-fa3ca410e7", "staging"])):
        served = Served("suspension/answer-later", "--run", run)
        variables = served.variables()
        assert sorted(variables) == ["OPENAI_API_KEY", "OPENAI_BASE_URL"], served.lines
        assert variables["OPENAI_BASE_URL"].startswith("http://127.0.0.1:")
        copy = subprocess.run(
            [sys.executable, *argv], cwd=tmp_path, env={**reader_env, **variables}, capture_output=True, timeout=120
        )
        notes.append(served.stop())
        assert copy.returncode == 0, copy.stderr.decode()
        golden = {"park": "park.py.out", "resume": "resume.py.resume.out"}[run]
        assert copy.stdout == (ANSWER_LATER / golden).read_bytes()
    park, resume = notes
    assert (
        "try: set the two variables above, then run your copy of snippets/suspension/answer-later/resume.py "
        "with the build's arguments: python resume.py ask-fa3ca410e7 staging\n" in resume
    )
    assert "try: run it in the folder where park, resume-rephrased ran first" in resume
    assert "try: request 2: answered with scripted reply 2 of 2 (quote the last tool result)\n" in resume
    assert park.endswith("try: stopped after 1 request(s); 1 of 1 scripted replies given\n"), park
    assert resume.endswith("try: stopped after 2 request(s); 2 of 2 scripted replies given\n"), resume


def test_serve_reports_a_request_the_script_did_not_expect(tmp_path: Path) -> None:
    shutil.copy(ANSWER_LATER / "park.py", tmp_path / "park.py")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "VERIFIED_DOCS_", "PYTHONPATH"))}
    served = Served("suspension/answer-later", "--run", "park")
    env.update(served.variables())
    subprocess.run([sys.executable, "park.py"], cwd=tmp_path, env=env, capture_output=True, timeout=120)
    second = subprocess.run([sys.executable, "park.py"], cwd=tmp_path, env=env, capture_output=True, timeout=120)
    err = served.stop()
    assert second.returncode != 0
    assert (
        "try: request 2: refused with HTTP 400: mock model: unexpected request: the script has 1 step(s) and "
        "all were used\n" in err
    ), err
