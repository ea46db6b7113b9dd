"""The new-release alarm (`nox -s release-matrix -- --newest`, `verified_docs release-alarm`):
the scenarios whose verdict differs between the pin and another release, with the pages and
claims resting on them; exit 1 when any did. 0.21.0 is still the newest release, so the alarm
is proved on releases already measured: the release matrix's columns for 0.6.0 and the pin."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT
from verified_docs import cli
from verified_docs.release import alarm, matrix
from verified_docs.render import release_matrix


def report(path: Path, release: str, scenarios: dict[str, bool], problems: dict | None = None) -> Path:
    path.write_text(json.dumps({"toolnexus": release, "scenarios": scenarios, "problems": problems or {}}))
    return path


def test_changes_are_verdicts_that_differ_or_new_problems() -> None:
    pinned = {
        "toolnexus": "0.21.0",
        "scenarios": {"a": True, "b": True, "c": False, "d": True},
        "problems": {"c": ["x"]},
    }
    newest = {
        "toolnexus": "0.22.0",
        "scenarios": {"a": True, "b": False, "c": False, "e": True},
        "problems": {"b": ["run[python]: s.yaml:3: tool_runs: expected 1, got 2"], "c": ["y"]},
    }
    assert alarm.changes(pinned, newest) == [
        alarm.Change("b", True, False, ("run[python]: s.yaml:3: tool_runs: expected 1, got 2",)),
        alarm.Change("c", False, False, ("y",)),
        alarm.Change("d", True, None),
        alarm.Change("e", None, True),
    ]
    assert alarm.changes(pinned, pinned) == []


def test_the_summary_is_a_table_with_pages_and_claims() -> None:
    found = [alarm.Change("suspension/x", True, False, ("run[python]: a|b",))]
    text = alarm.summary(found, "0.21.0", "0.22.0", {"suspension/x": ["x.md"]}, {"suspension/x": ["x.md:4,9"]})
    assert text == (
        "### toolnexus 0.22.0: 1 scenario(s) changed against the pinned 0.21.0\n\n"
        "| scenario | on 0.21.0 | on 0.22.0 | first problem on 0.22.0 | pages | claims |\n"
        "| --- | --- | --- | --- | --- | --- |\n"
        "| `suspension/x` | passes | fails | run[python]: a\\|b | `x.md` | `x.md:4,9` |\n"
    )
    assert alarm.summary([], "0.21.0", "0.22.0", {}, {}).startswith("### toolnexus 0.22.0: no scenario changed")


def test_citations_find_the_pages_and_claims_of_a_scenario() -> None:
    pages, claims = alarm.citations(ROOT / "docs")
    assert "suspension/approval-gate.md" in pages["suspension/approval-gate"]
    cited = claims["suspension/approval-gate"]
    assert cited and all(c.count(":") == 1 and c.split(":")[1].replace(",", "").isdigit() for c in cited)


def test_the_alarm_fires_on_an_older_release_and_names_what_rests_on_it(tmp_path: Path, capsys, monkeypatch) -> None:
    measured = release_matrix.load(ROOT / release_matrix.MATRIX_FILE)
    pin, older = measured.releases[-1], measured.releases[0]
    column = lambda r: {name: results[r] for name, results in measured.scenarios.items()}  # noqa: E731
    expected = sorted(n for n in measured.scenarios if column(pin)[n] != column(older)[n])
    assert expected, f"the matrix measured no difference between {older} and {pin}"
    summary = tmp_path / "summary.md"
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    code = cli.main(
        [
            "release-alarm",
            "--root",
            str(ROOT),
            "--pinned",
            str(report(tmp_path / "p.json", pin, column(pin))),
            "--newest",
            str(report(tmp_path / "o.json", older, column(older))),
            "--summary",
            str(summary),
        ]
    )
    assert code == 1
    out = capsys.readouterr().out
    assert (
        out.splitlines()[0]
        == f"release alarm: toolnexus {older} changes {len(expected)} scenario(s) against the pinned {pin}"
    )
    named = [
        line.split(":")[0].strip() for line in out.splitlines() if line.startswith("  ") and not line.startswith("   ")
    ]
    assert named == expected
    pages, _ = alarm.citations(ROOT / "docs")
    table = summary.read_text()
    for name in expected:
        row = next(line for line in table.splitlines() if line.startswith(f"| `{name}` |"))
        assert all(f"`{page}`" in row for page in pages.get(name, [])), row


def test_the_same_release_raises_no_alarm(tmp_path: Path, capsys) -> None:
    measured = release_matrix.load(ROOT / release_matrix.MATRIX_FILE)
    pin = measured.releases[-1]
    column = {name: results[pin] for name, results in measured.scenarios.items()}
    r = str(report(tmp_path / "p.json", pin, column))
    assert (
        cli.main(
            ["release-alarm", "--root", str(ROOT), "--pinned", r, "--newest", r, "--summary", str(tmp_path / "s.md")]
        )
        == 0
    )
    assert capsys.readouterr().out == f"release alarm: toolnexus {pin} changes no scenario against the pinned {pin}\n"


def _environment_with(release: str, folder: Path) -> str:
    """The python of a fresh environment in ``folder``: uv.lock's packages without toolnexus,
    this project (editable), and toolnexus ``release`` from PyPI (with mcp below 2, as the
    release matrix installs it)."""
    venv = folder / "venv"
    uv = [shutil.which("uv", path=str(Path(sys.executable).parent)) or "uv"]
    subprocess.run([*uv, "venv", "--quiet", "--python", sys.executable, str(venv)], check=True, timeout=120)
    reqs = folder / "requirements.txt"
    subprocess.run(
        [
            *uv,
            "export",
            "--quiet",
            "--frozen",
            "--no-emit-project",
            "--no-emit-package",
            "toolnexus",
            "--directory",
            str(ROOT),
            "-o",
            str(reqs),
        ],
        check=True,
        timeout=120,
    )
    python = str(venv / "bin" / "python")
    subprocess.run(
        [*uv, "pip", "install", "--quiet", "--python", python, "--require-hashes", "-r", str(reqs)],
        check=True,
        timeout=600,
    )
    subprocess.run(
        [*uv, "pip", "install", "--quiet", "--python", python, "--no-deps", "-e", str(ROOT)], check=True, timeout=300
    )
    subprocess.run(
        [*uv, "pip", "install", "--quiet", "--python", python, f"toolnexus=={release}", "mcp>=1.0.0,<2.0.0"],
        check=True,
        timeout=600,
    )
    return python


def test_the_alarm_fires_when_an_older_release_is_verified_for_real(tmp_path: Path, capsys, monkeypatch) -> None:
    """What `release-matrix -- --release=0.6.0` does, on one scenario: verify it on the pin (this
    interpreter) and on toolnexus 0.6.0 installed from PyPI into a fresh environment with the
    rest of uv.lock, then compare. approval-gate passes from 0.7.0 (its `since`), so it changed."""
    name, older = "suspension/approval-gate", "0.6.0"
    python = _environment_with(older, tmp_path)
    reports = {}
    for release, interpreter in (("pin", sys.executable), (older, python)):
        reports[release] = tmp_path / f"{release}.json"
        done = subprocess.run(
            [
                interpreter,
                "-m",
                "verified_docs",
                "verify",
                "--root",
                str(ROOT),
                "--only",
                name,
                "--force",
                "--report",
                str(reports[release]),
                "--ledger",
                str(tmp_path / f"{release}-ledger.json"),
            ],
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "CI": ""},
        )
        assert done.returncode == (0 if release == "pin" else 1), done.stdout + done.stderr
    assert json.loads(reports[older].read_text())["toolnexus"] == older
    code = cli.main(
        [
            "release-alarm",
            "--root",
            str(ROOT),
            "--pinned",
            str(reports["pin"]),
            "--newest",
            str(reports[older]),
            "--summary",
            str(tmp_path / "summary.md"),
        ]
    )
    out = capsys.readouterr().out.splitlines()
    assert code == 1
    assert out[:2] == [
        f"release alarm: toolnexus {older} changes 1 scenario(s) against the pinned {matrix.pinned_release(ROOT)}",
        f"  {name}: passes on {matrix.pinned_release(ROOT)}, fails on {older}",
    ]
    pages, _ = alarm.citations(ROOT / "docs")
    assert "suspension/approval-gate.md" in pages[name]
    assert f"      pages: {', '.join(pages[name])}" in out
