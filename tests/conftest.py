"""The test suite's fixtures and order. The fence plugin (:mod:`verified_docs.fences.plugin`)
is loaded through ``pyproject.toml``'s ``addopts``.

- ``verification`` (session): every scenario verified once, ledger written to a temp dir.
- ``built_site`` (session): the real docs through the render stage and ``mkdocs build --strict``, against that ledger.
  Once it passed, it calls what :func:`when_site_built` registered (the browser tests start
  reading it in threads of their own, while the tests before them run).
- ``zensical_site`` (session): the same through Zensical; when the session uses it, its build
  starts beside ``built_site``'s (both are subprocesses, one core each).
- Tests marked ``first`` run first; tests marked ``guard`` run last, after every fence had its chance to run; browser tests just before them.
- Under pytest-xdist (``nox -s tests`` passes ``-n auto``) the order and the worker a test
  runs on come from :mod:`parallel`: the ``first`` tests still run alone, the fences and the
  guard share a worker, and ``verification``, ``built_site`` and ``zensical_site`` are
  computed once for all workers (the browser tests' early reading is the serial run's: a
  worker reads a page when its first test of that page asks).
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import pytest

import parallel
from parallel import computed_once, in_a_worker
from verified_docs.run import tmproot
from verified_docs.scenario.load import discover_project
from verified_docs.scenario.records import Scenario

if TYPE_CHECKING:
    from verified_docs.verify.verdict import RunVerdict

ROOT = Path(__file__).resolve().parents[1]
SNIPPETS = ROOT / "snippets"
SAMPLES = ROOT / "tests" / "samples"
# Sample programs are inputs, not tests; --markdown-docs would import them for docstrings.
collect_ignore = ["samples"]


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
    # the bundled Mermaid script (verified_docs/render/vendor.py), fetched at most once.
    os.environ.setdefault("VERIFIED_DOCS_VENDOR", str(ROOT / "build" / "vendor"))
    config.addinivalue_line("markers", "guard: checks the built site; runs after everything else")
    config.addinivalue_line("markers", "first: runs before every other test, alone on the machine")
    config.pluginmanager.register(parallel, "parallel")


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    # Browser tests run after everything else but the guard: Playwright's sync API keeps an
    # event loop running in the main thread, which would break the docs' asyncio.run() fences.
    # Tests marked ``first`` (whole builds of timing-sensitive scenarios) run before any other,
    # so before the browser tests' early reading starts beside the rest (see ``when_site_built``).
    def order(item: pytest.Item) -> tuple[bool, bool, bool]:
        return (
            item.get_closest_marker("first") is None,
            item.get_closest_marker("guard") is not None,
            "tests/browser/" in item.nodeid,
        )

    items.sort(key=order)


FENCES_COLLECTED = pytest.StashKey[bool]()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    # A guard test checks every Python block of the site against the docs' fences that ran in
    # this session; in a session without them it could only fail, after a verification and a
    # build, naming every fence. It fails at once instead, before its fixtures, naming the run
    # that works.
    if item.get_closest_marker("guard") is not None and not item.config.stash.get(FENCES_COLLECTED, True):
        pytest.fail(
            f"{item.nodeid} (marked guard) checks the built site against the docs' Python fences that ran in "
            f"this session, and none was collected: add the docs to the run, e.g. "
            f"nox -s tests -- docs {item.nodeid.split('::')[0]}",
            pytrace=False,
        )


@dataclass(frozen=True)
class Verification:
    """Every verdict of this session, by scenario name, and the ledger they produced."""

    scenarios: dict[str, Scenario]
    verdicts: dict[str, list[RunVerdict]]
    ledger_path: Path


def scenario_names() -> list[str]:
    return [s.name for s in discover_project(ROOT)]


@pytest.fixture(scope="session")
def verification(tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config) -> Verification:
    return computed_once(pytestconfig, "verification", functools.partial(_verify, tmp_path_factory))


def _verify(tmp_path_factory: pytest.TempPathFactory) -> Verification:
    # Imported here: the build runs each docs page's fences in a pytest process of its own,
    # which needs none of the verification machinery (about 0.15 s to import).
    from verified_docs import ledger as ledger_mod
    from verified_docs.verify.scenarios import verify_all

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
    env = {
        **os.environ,
        "VERIFIED_DOCS_LEDGER": str(ledger_path),
        "NO_MKDOCS_2_WARNING": "1",
        "VERIFIED_DOCS_EDIT_URI": TEST_EDIT_URI,
    }
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return BuiltSite(done.returncode, done.stdout + done.stderr, site)


def start_rendered(ledger_path: Path, out: Path, generator: str, root: Path = ROOT) -> Callable[[], BuiltSite]:
    """Start the build's own path in a subprocess: the render stage into ``out`` (pages and a
    generated ``mkdocs.yml``), then ``generator`` (``mkdocs`` or ``zensical``) into ``out/site``.
    Returns the function that waits for it (at most 600 s) and gives its outcome."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "VERIFIED_DOCS_EDIT_URI": TEST_EDIT_URI}
    args = ["render", "--root", str(root), "--ledger", str(ledger_path), "--out", str(out), "--generator", generator]
    started = subprocess.Popen(
        [sys.executable, "-m", "verified_docs", *args],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )

    def wait() -> BuiltSite:
        try:
            output, _ = started.communicate(timeout=600)
        finally:
            started.kill()
            started.wait()
        return BuiltSite(started.returncode, output, out / "site")

    return functools.cache(wait)


def build_rendered(ledger_path: Path, out: Path, generator: str, root: Path = ROOT) -> BuiltSite:
    """:func:`start_rendered`, waited for."""
    return start_rendered(ledger_path, out, generator, root)()


SITE_BUILT = pytest.StashKey[list[Callable[[BuiltSite, pytest.TempPathFactory], None]]]()


def when_site_built(config: pytest.Config, start: Callable[[BuiltSite, pytest.TempPathFactory], None]) -> None:
    """Have ``built_site`` call ``start(site, tmp_path_factory)`` once its strict build passed.
    ``start`` must return at once (it starts work in threads of its own); the tests go on meanwhile."""
    config.stash.setdefault(SITE_BUILT, []).append(start)


USED_FIXTURES = pytest.StashKey[set[str]]()
ZENSICAL_STARTED = pytest.StashKey[Callable[[], BuiltSite]]()


def pytest_collection_finish(session: pytest.Session) -> None:
    session.config.stash[USED_FIXTURES] = {n for item in session.items for n in getattr(item, "fixturenames", ())}
    # After deselection (-k, -m): the items that will run.
    session.config.stash[FENCES_COLLECTED] = any(getattr(i, "test_definition", None) is not None for i in session.items)


def _start_zensical(config: pytest.Config, verification: Verification, factory: pytest.TempPathFactory) -> None:
    if ZENSICAL_STARTED not in config.stash:
        out = factory.mktemp("rendered-zensical")
        config.stash[ZENSICAL_STARTED] = start_rendered(verification.ledger_path, out, "zensical")


@pytest.fixture(scope="session")
def built_site(
    verification: Verification, tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config
) -> BuiltSite:
    """The site as ``nox -s docs`` builds it: rendered, then MkDocs. When the session's tests
    use ``zensical_site`` too, that build starts at the same time, beside it (in a serial
    run; under xdist each is built when a worker first asks, once for all)."""
    if in_a_worker(pytestconfig):
        return computed_once(
            pytestconfig,
            "built_site",
            lambda: build_rendered(verification.ledger_path, tmp_path_factory.mktemp("rendered"), "mkdocs"),
        )
    if "zensical_site" in pytestconfig.stash.get(USED_FIXTURES, set()):
        _start_zensical(pytestconfig, verification, tmp_path_factory)
    built = build_rendered(verification.ledger_path, tmp_path_factory.mktemp("rendered"), "mkdocs")
    if built.returncode == 0:
        for start in pytestconfig.stash.get(SITE_BUILT, []):
            start(built, tmp_path_factory)
    return built


@pytest.fixture(scope="session")
def zensical_site(
    verification: Verification, tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config
) -> BuiltSite:
    """The same site built with Zensical (``nox -s docs -- --generator zensical``)."""
    if in_a_worker(pytestconfig):
        return computed_once(
            pytestconfig,
            "zensical_site",
            lambda: build_rendered(verification.ledger_path, tmp_path_factory.mktemp("rendered-zensical"), "zensical"),
        )
    _start_zensical(pytestconfig, verification, tmp_path_factory)
    return pytestconfig.stash[ZENSICAL_STARTED]()
