"""The trace file of one snippet process: events appended as JSON lines, and at exit the files
of the modules it loaded from outside the interpreter.

A top-level module of the tracer's folder (imported by ``sitecustomize``, never from the
``verified_docs`` package). Each event gets ``t`` (``time.monotonic_ns()``) and ``pid``; a
dataclass in an event is written as its fields, anything else JSON cannot hold by its repr.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import time
from typing import Any

# The trace file events go to; None when the process names none (its events are then dropped).
_PATH: str | None = os.environ.get("VERIFIED_DOCS_TRACE")


def set_path(path: str | None) -> None:
    """Send events to ``path`` from now on (the fork server's child names its own)."""
    global _PATH
    _PATH = path


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return repr(value)


def emit(event: dict[str, Any]) -> None:
    """Append ``event`` (stamped with ``t`` and ``pid``) to the trace file as one JSON line."""
    if _PATH is None:
        return
    event = {**event, "t": time.monotonic_ns(), "pid": os.getpid()}
    with open(_PATH, "a", encoding="utf-8") as f:
        f.write(json.dumps(event, default=_plain) + "\n")


# Module file -> its real path, or None when it is not a file or lies inside the interpreter's own
# folders. Filled by resolve_loaded() in the fork server's worker for the modules it preloads, so
# a child resolves only the modules its program adds.
_REAL_FILES: dict[str, str | None] = {}


def _outside_file(file: str, own: tuple[str, ...]) -> str | None:
    if file not in _REAL_FILES:
        real = os.path.realpath(file) if os.path.isfile(file) else None
        _REAL_FILES[file] = real if real and not real.startswith(own) else None
    return _REAL_FILES[file]


def _own_folders() -> tuple[str, ...]:
    return tuple(os.path.realpath(p) + os.sep for p in {sys.prefix, sys.base_prefix, os.path.dirname(__file__)})


def _module_files() -> list[str]:
    return [f for f in (getattr(m, "__file__", None) for m in list(sys.modules.values())) if isinstance(f, str)]


def emit_imports() -> None:
    """The ``imports`` event: the real paths of the loaded modules' files outside the
    interpreter's own folders and the tracer's, sorted."""
    own = _own_folders()
    files = {real for real in (_outside_file(f, own) for f in _module_files()) if real}
    emit({"event": "imports", "files": sorted(files)})


def resolve_loaded() -> None:
    """Resolve the files of every module loaded so far, for the ``imports`` events of the
    processes forked from this one."""
    own = _own_folders()
    for file in _module_files():
        _outside_file(file, own)
