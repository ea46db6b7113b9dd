"""Observe toolnexus from outside a Python snippet, without a line of harness in the snippet.

The runner puts this folder first on ``PYTHONPATH`` and names a trace file in
``VERIFIED_DOCS_TRACE``. When (and only when) the snippet imports toolnexus, the real classes
are wrapped (``verified_docs_toolnexus``) so that every tool execution, every ``wait_for`` call
and every run's final status is appended to the trace as one JSON line
(``verified_docs_trace``). Nothing is replaced: each wrapper calls the real method and returns
its result unchanged. Sleeps are counted (``verified_docs_sleeps``), the process is kept
offline (``verified_docs_offline``) and its lines are measured with coverage.py. The modules
of this folder are top-level modules of the snippet's process: none imports the
``verified_docs`` package.

Events (SPEC §10 vocabulary); each also carries ``t`` (``time.monotonic_ns()``, one clock for
every process of the machine, so events merge in order with the mock model's requests) and
``pid`` (a snippet may start processes of its own that trace too):
  {"event": "run_start", "via": "run"|"stream", "prompt", "history": int|None}  (a run begins;
   history: the messages passed in, None for stream, which may load them from its store)
  {"event": "tool_start", "tool", "args"}                 (before a tool executes)
  {"event": "tool_execute", "tool", "args", "answer": Answer|None, "answer_data_read": bool,
   "output", "is_error", "pending": Request|None}
  {"event": "wait_for", "request": Request}              (before the host's callback runs)
  {"event": "wait_for_answered", "request_id", "answer": Answer|None}
  {"event": "stream_pending", "request": Request}        (a streamed {type: "pending"} event)
  {"event": "run_end", "status", "pending": Request|None, "text"}   (from run() and stream())
  {"event": "metric_tool", "tool", "is_error", "pending": bool}    (each §8 "tool" metric event)
  {"event": "imports", "files": [...]}   (at exit: modules loaded from outside the interpreter)
  {"event": "names", "files": {path: {name: "toolnexus.types.Answer"}}}   (at exit: the toolnexus
   modules, classes and functions bound to global names of the program and its support files)
  {"event": "slept", "seconds": float, "calls": int}   (at exit: what time.sleep and asyncio.sleep
   were asked for in this process, the program's sleeps and toolnexus's own polling alike)
"""

from __future__ import annotations

import importlib.abc
import inspect
import os
import sys
import time
from collections.abc import Mapping
from typing import Any, Callable

import verified_docs_offline
import verified_docs_sleeps
import verified_docs_toolnexus
import verified_docs_trace

_TRACE = os.environ.get("VERIFIED_DOCS_TRACE")


def start_trace(path: str | None) -> None:
    """Send events to ``path`` from now on: the fork server's child names its own trace file,
    since this module was loaded once, in the worker it was forked from. At exit, the files of
    the modules the program loaded from outside the interpreter's own folders are recorded
    (``{"event": "imports", "files": [...]}``), so a cached verdict can depend on them, and the
    toolnexus names the program's own files bound (``{"event": "names", ...}``), so a page can
    link them to the API reference."""
    verified_docs_trace.set_path(path)
    verified_docs_sleeps.reset()  # a forked child starts its own count
    if path:
        import atexit

        atexit.register(verified_docs_trace.emit_imports)
        atexit.register(verified_docs_trace.emit_names)
        atexit.register(verified_docs_sleeps.emit_slept)


def start_coverage(env: Mapping[str, str]) -> None:
    """Measure the scenario's own files with coverage.py when ``env`` names them
    (``VERIFIED_DOCS_COVERAGE``: data file prefix; ``VERIFIED_DOCS_COVERAGE_FILES``: paths
    joined by os.pathsep; see verified_docs.run.line_coverage, which reads the data). Each
    process saves its own ``prefix.<suffix>`` at exit."""
    prefix, files = env.get("VERIFIED_DOCS_COVERAGE"), env.get("VERIFIED_DOCS_COVERAGE_FILES")
    if not prefix or not files:
        return
    import atexit

    import coverage

    cov = coverage.Coverage(
        data_file=prefix, data_suffix=True, include=files.split(os.pathsep), config_file=False, branch=False
    )
    cov.start()

    def save() -> None:
        cov.stop()
        cov.save()

    atexit.register(save)


def warm() -> None:
    """In the fork server's worker, once its modules are imported and before it forks: do the
    work each child would otherwise repeat on the modules it inherits. Resolves their files for
    the ``imports`` event, and fills ``inspect``'s module-to-file map, which coverage.py builds
    on its first ``inspect.stack()`` (its collector calls it at start)."""
    verified_docs_trace.resolve_loaded()
    inspect.stack()


# Modules patched as they are imported, by name.
_PATCHES: dict[str, Callable[[Any], None]] = {
    "toolnexus.toolkit": verified_docs_toolnexus.patch_toolkit,
    "toolnexus.client": verified_docs_toolnexus.patch_client,
    "asyncio.tasks": verified_docs_sleeps.patch_asyncio_tasks,
}


class _PatchingLoader(importlib.abc.Loader):
    def __init__(self, real: Any, patch: Callable[[Any], None]) -> None:
        self._real, self._patch = real, patch

    def create_module(self, spec: Any) -> Any:
        return self._real.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self._real.exec_module(module)
        self._patch(module)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name not in _PATCHES:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = _PatchingLoader(spec.loader, _PATCHES[name])
                return spec
        return None


if _TRACE:
    sys.meta_path.insert(0, _Finder())
    time.sleep = verified_docs_sleeps.counting_time_sleep(time.sleep)
    if "asyncio.tasks" in sys.modules:  # imported before this file ran (not on CPython 3.11)
        verified_docs_sleeps.patch_asyncio_tasks(sys.modules["asyncio.tasks"])
        asyncio_module: Any = sys.modules["asyncio"]
        asyncio_module.sleep = sys.modules["asyncio.tasks"].sleep
    if _TRACE != os.devnull:  # the fork server's worker traces nothing itself
        start_trace(_TRACE)
        start_coverage(os.environ)
    verified_docs_offline.go_offline()

# Shortly before the runner's timeout kills the process, dump every thread's stack to stderr,
# so a hanging snippet's verdict can name the line it was stuck on.
_TIMEOUT = os.environ.get("VERIFIED_DOCS_TIMEOUT")
if _TIMEOUT:
    import faulthandler

    faulthandler.dump_traceback_later(max(float(_TIMEOUT) - 0.4, float(_TIMEOUT) * 0.8), exit=False)
