"""The test plugin: the only place that knows about pytest. It sits at the project root so
that its hooks also see the Markdown fences collected from docs/.

- ``verification`` (session): every scenario verified once, ledger written to a temp dir.
- ``built_site`` (session): the real docs through the render stage and ``mkdocs build --strict``, against that ledger.
- Python fences that pytest-markdown-docs executed and passed are recorded, so the guard can
  tell an executed fence from one that was silently skipped.
- Each page's fences start from the environment, working directory and ``sys.path`` as they
  were before that page, so a fence cannot pass on what another page's fences set (the build
  goes further and runs each page in its own process).
- Under the build (``VERIFIED_DOCS_FENCES_OUT`` set) the files the fences read are recorded
  too, with the failures at their page line, for the build's fence cache and report.
- Tests marked ``guard`` run last, after every fence had its chance to run.
"""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from verified_docs import tmproot
from verified_docs.fence_run import FenceFailure, PageRun, ProcessState, ReadRecorder
from verified_docs.scenario import Scenario, discover_project

if TYPE_CHECKING:
    from verified_docs.verify import RunVerdict

ROOT = Path(__file__).resolve().parent
SNIPPETS = ROOT / "snippets"
SAMPLES = ROOT / "tests" / "samples"
EXECUTED_FENCES = pytest.StashKey[set]()
FAILED_FENCES = pytest.StashKey[list]()
READS = pytest.StashKey[ReadRecorder]()
PAGE_STATE = pytest.StashKey[tuple]()
# Sample programs are inputs, not tests; --markdown-docs would import them for docstrings.
collect_ignore = ["tests/samples"]


def gone(pid: int) -> bool:
    """True once ``pid`` has exited (absent, or a zombie waiting for whoever adopted it), polled
    for up to 5 s. Tests check the processes they started by pid, never by a machine-wide search."""
    for _ in range(50):
        status = Path(f"/proc/{pid}/status")
        try:
            if "\nState:\tZ" in status.read_text():
                return True
        except FileNotFoundError:
            return True
        time.sleep(0.1)
    return False


def pytest_configure(config: pytest.Config) -> None:
    # The suite runs as outside GitHub Actions (tests compare exact output); the tests of the
    # workflow commands set GITHUB_ACTIONS themselves. Nor does it write to the job summary.
    for name in ("GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY"):
        os.environ.pop(name, None)
    # One temporary root for the whole session (pytest's tmp_path, the warm worker, every
    # verification and browser profile), removed at exit or, after a kill, by its watcher.
    # An unusable TMPDIR stops the session here with one line, not at every browser test.
    try:
        tmproot.enter()
    except tmproot.EnvironmentProblem as e:
        pytest.exit(str(e), returncode=pytest.ExitCode.USAGE_ERROR)
    # Every site the tests build (many in throwaway folders) serves the checkout's one copy of
    # the bundled Mermaid script (verified_docs/vendor.py), fetched at most once.
    os.environ.setdefault("VERIFIED_DOCS_VENDOR", str(ROOT / "build" / "vendor"))
    config.addinivalue_line("markers", "guard: checks the built site; runs after everything else")
    config.stash[EXECUTED_FENCES] = set()
    config.stash[FAILED_FENCES] = []
    if os.environ.get("VERIFIED_DOCS_FENCES_OUT"):
        config.stash[READS] = ReadRecorder()


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    # Browser tests run after everything else but the guard: Playwright's sync API keeps an
    # event loop running in the main thread, which would break the docs' asyncio.run() fences.
    def order(item: pytest.Item) -> tuple[bool, bool]:
        return item.get_closest_marker("guard") is not None, "tests/browser/" in item.nodeid
    items.sort(key=order)


def _fence_page(item: pytest.Item | None) -> str | None:
    definition = getattr(item, "test_definition", None)
    return None if definition is None else str(Path(definition.source_path).resolve())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    # Fences of one page run one after the other (pytest collects a file's items together):
    # take the process state before a page's first fence, put it back after its last.
    page = _fence_page(item)
    if page is None:
        return (yield)
    stash = item.config.stash
    if stash.get(PAGE_STATE, (None,))[0] != page:
        stash[PAGE_STATE] = (page, ProcessState.capture())
    recorder = stash.get(READS, None)
    try:
        with recorder.recording() if recorder else contextlib.nullcontext():
            return (yield)
    finally:
        if _fence_page(nextitem) != page:
            stash[PAGE_STATE][1].restore()
            del stash[PAGE_STATE]


def _failure_line(item: pytest.Item, excinfo: pytest.ExceptionInfo) -> int:
    """The page line the fence failed at: the innermost traceback entry in the page (fences
    are compiled under the page's path with its line numbers), else the fence's opening line."""
    definition = item.test_definition
    page = str(definition.source_path)
    if isinstance(excinfo.value, SyntaxError) and excinfo.value.filename == page and excinfo.value.lineno:
        return excinfo.value.lineno
    lines = [entry.lineno + 1 for entry in excinfo.traceback if str(entry.path) == page]
    return lines[-1] if lines else definition.start_line


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    # A markdown-docs fence counts as executed only when its call phase passed. Its
    # start_line is pytest-markdown-docs' own (markdown-it's 0-based fence line + 1).
    outcome = yield
    report = outcome.get_result()
    page = _fence_page(item)
    if page is None:
        return
    if report.when == "call" and report.passed:
        item.config.stash[EXECUTED_FENCES].add((page, item.test_definition.start_line))
    elif report.failed and call.excinfo is not None:
        message = (call.excinfo.exconly().strip().splitlines() or [call.excinfo.typename])[0]
        item.config.stash[FAILED_FENCES].append(FenceFailure(page, _failure_line(item, call.excinfo), message))


def pytest_sessionfinish(session: pytest.Session) -> None:
    # The build runs each page's fences in a process of its own, then guards the built site
    # with what they executed and caches the pass on what they read.
    out = os.environ.get("VERIFIED_DOCS_FENCES_OUT")
    if out:
        stash = session.config.stash
        PageRun(frozenset(stash[EXECUTED_FENCES]), tuple(stash[FAILED_FENCES]), stash[READS].reads()).save(Path(out))


@dataclass(frozen=True)
class Verification:
    """Every verdict of this session, by scenario name, and the ledger they produced."""

    scenarios: dict[str, Scenario]
    verdicts: dict[str, list[RunVerdict]]
    ledger_path: Path


def scenario_names() -> list[str]:
    return [s.name for s in discover_project(ROOT)]


@pytest.fixture(scope="session")
def verification(tmp_path_factory: pytest.TempPathFactory) -> Verification:
    # Imported here: the build runs each docs page's fences in a pytest process of its own,
    # which needs none of the verification machinery (about 0.15 s to import).
    from verified_docs import ledger as ledger_mod
    from verified_docs.verify import verify_all

    scenarios = {s.name: s for s in discover_project(ROOT)}
    verdicts = verify_all(list(scenarios.values()))
    ledger_path = tmp_path_factory.mktemp("ledger") / "verified-ledger.json"
    ledger_mod.save(ledger_mod.build([v for vs in verdicts.values() for v in vs], ROOT), ledger_path)
    return Verification(scenarios, verdicts, ledger_path)


@dataclass(frozen=True)
class BuiltSite:
    """A strict build's outcome: ``returncode``, combined ``output``, and the ``site`` folder."""

    returncode: int
    output: str
    site: Path


# The test build's edit links (this checkout may have no remote to derive them from).
TEST_EDIT_URI = "https://git.example.org/verified-docs/edit/main/docs/"


def build_site(ledger_path: Path, site: Path, config: Path = ROOT / "mkdocs.yml") -> BuiltSite:
    """Run ``mkdocs build --strict`` in a subprocess (MkDocs stays out of this process)."""
    env = {**os.environ, "VERIFIED_DOCS_LEDGER": str(ledger_path), "NO_MKDOCS_2_WARNING": "1",
           "VERIFIED_DOCS_EDIT_URI": TEST_EDIT_URI}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    return BuiltSite(done.returncode, done.stdout + done.stderr, site)


def build_rendered(ledger_path: Path, out: Path, generator: str, root: Path = ROOT) -> BuiltSite:
    """The build's own path, in a subprocess: the render stage into ``out`` (pages and a
    generated ``mkdocs.yml``), then ``generator`` (``mkdocs`` or ``zensical``) into ``out/site``."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "VERIFIED_DOCS_EDIT_URI": TEST_EDIT_URI}
    done = subprocess.run([sys.executable, "-m", "verified_docs", "render", "--root", str(root), "--ledger",
                           str(ledger_path), "--out", str(out), "--generator", generator],
                          cwd=root, env=env, capture_output=True, text=True, timeout=600)
    return BuiltSite(done.returncode, done.stdout + done.stderr, out / "site")


@pytest.fixture(scope="session")
def built_site(verification: Verification, tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """The site as ``nox -s docs`` builds it: rendered, then MkDocs."""
    return build_rendered(verification.ledger_path, tmp_path_factory.mktemp("rendered"), "mkdocs")


@pytest.fixture(scope="session")
def zensical_site(verification: Verification, tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """The same site built with Zensical (``nox -s docs -- --generator zensical``)."""
    return build_rendered(verification.ledger_path, tmp_path_factory.mktemp("rendered-zensical"), "zensical")


@pytest.fixture
def executed_fences(request: pytest.FixtureRequest) -> set[tuple[str, int]]:
    """(absolute md path, 1-based fence line) of every fence executed and passed so far."""
    return request.config.stash[EXECUTED_FENCES]
