"""The pytest plugin for the pages' Python fences: the only module of the package that
imports pytest. Loaded with ``-p verified_docs.fences.plugin`` (the build's fence runs pass it;
``pyproject.toml``'s ``addopts`` gives it to ``nox -s tests``).

- Fences that pytest-markdown-docs executed and passed are recorded, so the guard can tell an
  executed fence from one that was silently skipped (:func:`executed_fences`).
- Each page's fences start from the environment, working directory and ``sys.path`` as they
  were before that page, so a fence cannot pass on what another page's fences set (the build
  goes further and runs each page in its own process).
- Under the build (``VERIFIED_DOCS_FENCES_OUT`` set) the files the fences read are recorded
  too, with the failures at their page line, and written there as a :class:`PageRun` at exit.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

from verified_docs.fences.run import FenceFailure, PageRun, ProcessState, ReadRecorder

OUT_ENV = "VERIFIED_DOCS_FENCES_OUT"
EXECUTED_FENCES = pytest.StashKey[set[tuple[str, int]]]()
FAILED_FENCES = pytest.StashKey[list[FenceFailure]]()
READS = pytest.StashKey[ReadRecorder]()
PAGE_STATE = pytest.StashKey[tuple[str, ProcessState]]()  # (page, its state before its first fence)


def pytest_configure(config: pytest.Config) -> None:
    config.stash[EXECUTED_FENCES] = set()
    config.stash[FAILED_FENCES] = []
    if os.environ.get(OUT_ENV):
        config.stash[READS] = ReadRecorder()


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
    definition = item.test_definition  # type: ignore[attr-defined]
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
        item.config.stash[EXECUTED_FENCES].add((page, item.test_definition.start_line))  # type: ignore[attr-defined]
    elif report.failed and call.excinfo is not None:
        message = (call.excinfo.exconly().strip().splitlines() or [call.excinfo.typename])[0]
        item.config.stash[FAILED_FENCES].append(FenceFailure(page, _failure_line(item, call.excinfo), message))


def pytest_sessionfinish(session: pytest.Session) -> None:
    # The build runs each page's fences in a process of its own, then guards the built site
    # with what they executed and caches the pass on what they read.
    out = os.environ.get(OUT_ENV)
    if out:
        stash = session.config.stash
        executed, failed = stash[EXECUTED_FENCES], stash[FAILED_FENCES]
        PageRun(frozenset(executed), tuple(failed), stash[READS].reads()).save(Path(out))


@pytest.fixture
def executed_fences(request: pytest.FixtureRequest) -> set[tuple[str, int]]:
    """(absolute md path, 1-based fence line) of every fence executed and passed so far."""
    return request.config.stash[EXECUTED_FENCES]
