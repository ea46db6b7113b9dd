"""The suite's xdist scheduling (tests/parallel.py), on a small sample suite run with two
workers in a pytest of its own: ``first`` runs alone, the fences and the guard share a worker
in that order, and the tests of one page share one; and a session value asked for by several
processes at once is computed once."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from conftest import ROOT
from parallel import once_in

CONFTEST = f"""
import os, sys, time
sys.path.insert(0, {str(ROOT / "tests")!r})
import parallel
import pytest

def note(what):
    with open(os.environ["SAMPLE_LOG"], "a") as log:
        log.write(f"{{time.monotonic()}} {{os.environ.get('PYTEST_XDIST_WORKER', '-')}} {{what}}\\n")

def pytest_configure(config):
    config.addinivalue_line("markers", "first: alone, before the rest")
    config.addinivalue_line("markers", "guard: after the fences")
    config.pluginmanager.register(parallel, "parallel")

@pytest.fixture(scope="session")
def visit():
    return "read"
"""

TESTS = {
    "test_first.py": """
        import time, pytest
        from conftest import note
        @pytest.mark.first
        def test_first():
            note("first-start")
            time.sleep(1.5)
            note("first-end")
    """,
    "test_guard.py": """
        import pytest
        from conftest import note
        @pytest.mark.guard
        def test_guard():
            note("guard")
    """,
    "test_one.py": """
        import pytest
        from conftest import note
        @pytest.mark.parametrize("site_page", ["a", "b"])
        def test_one_visit(visit, site_page):
            note(f"visit-{site_page}")
        def test_one_plain():
            note("plain")
    """,
    "test_two.py": """
        import pytest
        from conftest import note
        @pytest.mark.parametrize("site_page", ["a"])
        def test_two_visit(visit, site_page):
            note(f"visit-{site_page}")
    """,
    "page.md": """
        # A page

        ```python
        import os, time
        with open(os.environ["SAMPLE_LOG"], "a") as log:
            log.write(f"{time.monotonic()} {os.environ['PYTEST_XDIST_WORKER']} fence\\n")
        ```
    """,
}


def _run_sample(tmp_path: Path) -> list[tuple[float, str, str]]:
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    for name, text in TESTS.items():
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    log = tmp_path / "log"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "2", "--markdown-docs", "-p", "no:cacheprovider", "-q"],
        cwd=tmp_path,
        # Not a worker of this session's xdist, if it runs under one.
        env={**{k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}, "SAMPLE_LOG": str(log)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and "7 passed" in done.stdout, done.stdout + done.stderr
    rows = [line.split() for line in log.read_text(encoding="utf-8").splitlines()]
    return [(float(t), worker, what) for t, worker, what in rows]


def test_first_runs_alone_then_fences_and_guard_share_a_worker_as_do_the_tests_of_one_page(tmp_path: Path) -> None:
    events = _run_sample(tmp_path)
    at = {what: t for t, _, what in events if what.startswith("first-")}
    others = [(t, what) for t, _, what in events if not what.startswith("first-")]
    assert len(others) == 6
    assert all(t > at["first-end"] for t, _ in others), events

    workers = {what: {w for _, w, x in events if x == what} for what in ("fence", "guard", "visit-a")}
    assert workers["fence"] == workers["guard"] and len(workers["guard"]) == 1, events
    # Page "a"'s tests are one unit whatever module they are in.
    assert len(workers["visit-a"]) == 1 and [x for _, _, x in events].count("visit-a") == 2, events
    fence = next(t for t, _, what in events if what == "fence")
    assert fence < next(t for t, _, what in events if what == "guard")


def _ask(folder: str, log: str) -> object:
    def compute() -> dict[str, int]:
        with open(log, "a") as f:
            f.write("computed\n")
        time.sleep(0.5)  # long enough for the other processes to be waiting on the lock
        return {"site": 42}

    return once_in(Path(folder), "built", compute)


def test_a_session_value_asked_for_by_three_processes_at_once_is_computed_once(tmp_path: Path) -> None:
    log = tmp_path / "log"
    with multiprocessing.get_context("spawn").Pool(3) as pool:
        got = pool.starmap(_ask, [(str(tmp_path), str(log))] * 3)
    assert got == [{"site": 42}] * 3
    assert log.read_text() == "computed\n"
    assert [p.name for p in tmp_path.glob("built.pickle*")] == ["built.pickle"]
