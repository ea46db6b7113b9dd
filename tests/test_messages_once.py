"""Each problem is printed once, by every entry point (issue 24, Done-when 6).

One project holds two faults on two pages: a Python fence never closed (a.md) and a directive
missing its section (b.md). Every entry point that renders pages (the build, ``render``,
``confirm-claims``, a plain ``mkdocs build`` through the hook, and ``serve``'s banner) must
name both, each exactly once. Before the pages were scanned once for all of them, the first
page's fault was raised again for every page that needed the scan (one copy per page), hid
the second page's fault, and under MkDocs was blamed on whichever page was read first; the
build ran the open fence under pytest and reported a syntax error far below it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from tests.serving import make_project, serving

OPEN_FENCE = (
    "# A\n\n```python\nprint('never closed')\n\n"
    '<!-- verified-example scenario="suspension/approval-gate" program="approval_gate" section="tool" -->\n'
)
NO_SECTION = '# B\n\n<!-- verified-example scenario="suspension/approval-gate" program="approval_gate" -->\n'
FAULTS = (
    "docs/a.md:3: code fence '```python' is never closed: it swallows everything after it",
    "docs/b.md:3: directive is missing section",
)
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The served test project with the two faulty pages in its nav and the real hook, after
    one build (which fails on the pages, having written the ledger the others read)."""
    root = make_project(tmp_path_factory.mktemp("two-faults"))
    (root / "docs" / "a.md").write_text(OPEN_FENCE, encoding="utf-8")
    (root / "docs" / "b.md").write_text(NO_SECTION, encoding="utf-8")
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = (
        config[: config.index("nav:")] + "nav:\n  - index.md\n  - a.md\n  - b.md\n" + config[config.index("theme:") :]
    )
    hook = ROOT / "verified_docs" / "site" / "mkdocs_hook.py"
    (root / "mkdocs.yml").write_text(config.replace("verified_docs/site/mkdocs_hook.py", str(hook)), encoding="utf-8")
    # pytest's options as the project's: the fence stage would run a.md's fence under them.
    (root / "pyproject.toml").write_text(
        '[tool.pytest.ini_options]\naddopts = ["--markdown-docs", "-p", "verified_docs.fences.plugin"]\n'
    )
    return root


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=root, capture_output=True, text=True, timeout=300, env=ENV)


def assert_each_once(printed: str) -> None:
    for fault in FAULTS:
        assert printed.count(fault) == 1, f"{fault!r} printed {printed.count(fault)} times:\n{printed}"


@pytest.fixture(scope="module")
def built(project: Path) -> subprocess.CompletedProcess[str]:
    return run(project, sys.executable, "-m", "verified_docs", "build", "--root", str(project))


def test_the_build_prints_each_fault_once_and_runs_no_open_fence(project: Path, built) -> None:
    assert built.returncode == 2, built.stdout + built.stderr
    assert_each_once(built.stdout + built.stderr)
    assert "SyntaxError" not in built.stdout + built.stderr, "the open fence ran under pytest"
    assert "[fences] docs/a.md not run: a fence on it is left open" in built.stdout
    assert not (project / "site").exists()
    # Like a failed stage, bad input ends saying that nothing was published.
    assert built.stderr.splitlines()[-1].endswith("problem(s) in the input above; site/ left as it was")


@pytest.mark.parametrize(
    "command",
    [("-m", "verified_docs", "render"), ("-m", "verified_docs", "confirm-claims"), ("-m", "mkdocs", "build")],
    ids=["render", "confirm-claims", "mkdocs-hook"],
)
def test_each_entry_point_prints_each_fault_once(project: Path, built, command: tuple[str, ...]) -> None:
    done = run(project, sys.executable, *command)
    assert done.returncode != 0, done.stdout + done.stderr
    assert_each_once(done.stdout + done.stderr)
    # MkDocs names the page it was reading when an error is raised: not a.md's fault on index.md.
    assert "Error reading page" not in done.stderr


def test_serves_banner_and_log_name_each_fault_once(project: Path, built) -> None:
    with serving(project) as served:
        state = served.next_epoch(0)
        assert state["ok"] is False, served.printed()
        assert_each_once(state["report"])
        # The log comes through a thread of ours after the epoch moved: wait for the cycle's
        # last line and each fault before counting (a fresh clone under xdist counted too soon).
        served.printed_once("[serve] NOT VERIFIED after")
        for fault in FAULTS:
            served.printed_once(fault)
        assert_each_once("".join(served.err))


def test_a_missing_nested_include_names_the_including_line_with_no_traceback(tmp_path: Path) -> None:
    # A page includes a file by hand, and that file includes one that is not there. Before,
    # pymdownx.snippets raised from inside MkDocs: a traceback naming only 'parts/gone.md'.
    root = make_project(tmp_path)
    (root / "parts").mkdir()
    (root / "parts" / "note.md").write_text('A note.\n--8<-- "parts/gone.md"\n', encoding="utf-8")
    (root / "docs" / "other.md").write_text('# Other\n\n--8<-- "parts/note.md"\n', encoding="utf-8")
    fault = "parts/note.md:2: --8<-- includes 'parts/gone.md', which is not there"
    build = run(root, sys.executable, "-m", "verified_docs", "build", "--root", str(root))
    plain = run(root, sys.executable, "-m", "mkdocs", "build")
    for done in (build, plain):
        printed = done.stdout + done.stderr
        assert done.returncode != 0, printed
        assert printed.count(fault) == 1, printed
        assert "    included from docs/other.md:3" in printed
        assert "Traceback" not in printed
