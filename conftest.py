"""The test plugin: the only place that knows about pytest. It sits at the project root so
that its hooks also see the Markdown fences collected from docs/.

- ``verification`` (session): every scenario verified once, ledger written to a temp dir.
- ``built_site`` (session): ``mkdocs build --strict`` of the real docs against that ledger.
- Python fences that pytest-markdown-docs executed and passed are recorded, so the guard can
  tell an executed fence from one that was silently skipped.
- Tests marked ``guard`` run last, after every fence had its chance to run.
"""
from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from verified_docs import ledger as ledger_mod
from verified_docs.scenario import Scenario, discover_project
from verified_docs.verify import RunVerdict, verify_all

ROOT = Path(__file__).resolve().parent
SNIPPETS = ROOT / "snippets"
SAMPLES = ROOT / "tests" / "samples"
EXECUTED_FENCES = pytest.StashKey[set]()
# Sample programs are inputs, not tests; --markdown-docs would import them for docstrings.
collect_ignore = ["tests/samples"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "guard: checks the built site; runs after everything else")
    config.stash[EXECUTED_FENCES] = set()


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    # Browser tests run after everything else but the guard: Playwright's sync API keeps an
    # event loop running in the main thread, which would break the docs' asyncio.run() fences.
    def order(item: pytest.Item) -> tuple[bool, bool]:
        return item.get_closest_marker("guard") is not None, "tests/browser/" in item.nodeid
    items.sort(key=order)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    # A markdown-docs fence counts as executed only when its call phase passed. Its
    # start_line is pytest-markdown-docs' own (markdown-it's 0-based fence line + 1).
    outcome = yield
    report = outcome.get_result()
    definition = getattr(item, "test_definition", None)
    if report.when == "call" and report.passed and definition is not None:
        item.config.stash[EXECUTED_FENCES].add((str(Path(definition.source_path).resolve()), definition.start_line))


def pytest_sessionfinish(session: pytest.Session) -> None:
    # `nox -s docs` runs the docs fences on their own, then guards the built site with this list.
    out = os.environ.get("VERIFIED_DOCS_FENCES_OUT")
    if out:
        from verified_docs.guard import save_executed

        save_executed(Path(out), session.config.stash[EXECUTED_FENCES])


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


@pytest.fixture(scope="session")
def built_site(verification: Verification, tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    return build_site(verification.ledger_path, tmp_path_factory.mktemp("site") / "site")


@pytest.fixture
def executed_fences(request: pytest.FixtureRequest) -> set[tuple[str, int]]:
    """(absolute md path, 1-based fence line) of every fence executed and passed so far."""
    return request.config.stash[EXECUTED_FENCES]
