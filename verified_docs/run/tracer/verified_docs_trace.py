"""The trace file of one snippet process: events appended as JSON lines, and at exit the files
of the modules it loaded from outside the interpreter and the toolnexus names its own files bound.

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


# Module file -> os.path.realpath of it, for every file: emit_names reads each loaded module's
# folder at exit, and a realpath per module per child was most of a trivial snippet's CPU time.
_REALPATHS: dict[str, str] = {}


def _realpath(file: str) -> str:
    real = _REALPATHS.get(file)
    if real is None:
        real = _REALPATHS[file] = os.path.realpath(file)
    return real


def _outside_file(file: str, own: tuple[str, ...]) -> str | None:
    if file not in _REAL_FILES:
        real = _realpath(file) if os.path.isfile(file) else None
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
        _realpath(file)


def _qualified(value: Any) -> str | None:
    """``module.qualname`` of a toolnexus module, class or function (``toolnexus.types.Answer``:
    where it is defined, not where the program imported it from); None for anything else."""
    if isinstance(value, type(sys)):
        name = value.__name__
    else:
        module, qualname = getattr(value, "__module__", None), getattr(value, "__qualname__", None)
        if not isinstance(module, str) or not isinstance(qualname, str):
            return None
        name = f"{module}.{qualname}"
    return name if name == "toolnexus" or name.startswith("toolnexus.") else None


def emit_names() -> None:
    """The ``names`` event: for the program (``__main__``) and each module loaded from a file in
    its folder (a support file), every global name bound to a toolnexus module, class or function
    at exit, by the file's real path: ``{"event": "names", "files": {path: {name: qualified}}}``.
    What the program really imported, so a page can link each name to its reference entry
    (instances are left out: their type is not read here). Nothing when ``__main__`` has no file."""
    # By then CPython has taken __file__ off __main__ again; its loader still names the file.
    main = getattr(getattr(sys.modules.get("__main__"), "__loader__", None), "path", None)
    if not isinstance(main, str) or not os.path.isfile(main):
        return
    folder = os.path.dirname(_realpath(main))
    files: dict[str, dict[str, str]] = {}
    for module in list(sys.modules.values()):
        file = main if module is sys.modules["__main__"] else getattr(module, "__file__", None)
        if not isinstance(file, str) or os.path.dirname(_realpath(file)) != folder:
            continue
        names = {k: q for k, v in list(vars(module).items()) if (q := _qualified(v)) is not None}
        if names:
            files[_realpath(file)] = dict(sorted(names.items()))
    emit({"event": "names", "files": files})
