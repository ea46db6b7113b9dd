"""One page's Python fences, run on their own: what ran, what failed, and what they read.

The build runs each page's fences in a pytest process of its own (:mod:`verified_docs.fences.stage`), and the
fence plugin (:mod:`verified_docs.fences.plugin`) writes one :class:`PageRun` per process. Two things here make
that run trustworthy when remembered or repeated:

- **What the fences read.** A fence may read any file: a data file, a module of this project,
  a package it imports. :class:`ReadRecorder` records every file opened for reading while the
  fences run, through CPython's audit hooks (PEP 578: the ``open`` event is raised by
  ``open()``, ``os.open`` and ``io.open_code``, which the import system uses for every module
  it loads), plus the files of modules imported meanwhile (extension modules are loaded
  without an ``open`` event). A remembered pass holds only while every recorded file has the
  content it had at the end of that run (:func:`first_change`). The standard library is left
  out: the interpreter's version and path are in the cache key already.
- **What the fences change.** :class:`ProcessState` takes and puts back the process-wide state
  a fence can change without meaning to share it (environment variables, working directory,
  ``sys.path``), for runs where several pages share a process (``nox -s tests``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from verified_docs.errors import Location, Problem
from verified_docs.files import write_atomic

_STDLIB = os.path.dirname(os.__file__) + os.sep
_PYC = re.compile(r"^(?P<dir>.*)/__pycache__/(?P<name>[^/.]+)\.[^/]+\.pyc$")


def _is_stdlib(path: str) -> bool:
    return path.startswith(_STDLIB) and "site-packages" not in path and "dist-packages" not in path


def source_of(path: str) -> str:
    """The ``.py`` file a ``__pycache__/*.pyc`` was compiled from, when it exists (a stale pyc
    is what an edited source looks like until the next import), else ``path``."""
    m = _PYC.match(path)
    if m:
        source = f"{m.group('dir')}/{m.group('name')}.py"
        if os.path.isfile(source):
            return source
    return path


class ReadRecorder:
    """Collects the absolute paths of files opened for reading while :meth:`recording`.

    The audit hook is added on the first :meth:`recording` and stays for the life of the
    process (CPython cannot remove one), doing nothing outside a recording."""

    def __init__(self) -> None:
        self.paths: set[str] = set()
        self._active = False
        self._installed = False

    def _hook(self, event: str, args: tuple) -> None:
        if not self._active or event != "open":
            return
        path, _mode, flags = args
        if isinstance(path, int) or path is None:
            return  # an already open file descriptor
        if isinstance(flags, int) and flags & os.O_ACCMODE == os.O_WRONLY:
            return  # written, not read
        self.paths.add(os.path.abspath(os.fsdecode(path)))

    @contextmanager
    def recording(self) -> Iterator[None]:
        """Record while the block runs, including modules imported in it."""
        if not self._installed:
            sys.addaudithook(self._hook)
            self._installed = True
        before = set(sys.modules)
        self._active = True
        try:
            yield
        finally:
            self._active = False
            for name in set(sys.modules) - before:
                file = getattr(sys.modules.get(name), "__file__", None)
                if isinstance(file, str):
                    self.paths.add(os.path.abspath(file))

    def reads(self) -> dict[str, str | None]:
        """Every recorded file outside the standard library (compiled modules as their source)
        with the SHA-256 of its content now, or None for a path that does not exist now (made
        and removed by the fences, or looked for and missing: its appearing is a change)."""
        out: dict[str, str | None] = {}
        for path in sorted({source_of(p) for p in self.paths}):
            if _is_stdlib(path):
                continue
            digest = _digest(path)
            if digest is not _NOT_A_FILE:
                out[path] = digest
        return out


_NOT_A_FILE = object()


def _digest(path: str):
    """SHA-256 hex of a regular file, None when nothing is there, _NOT_A_FILE for a directory,
    a device or a pipe (reading those is not reading content that a rebuild could compare)."""
    try:
        if not os.path.isfile(path):
            return None if not os.path.lexists(path) else _NOT_A_FILE
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def first_change(reads: dict[str, str | None], memo: dict[str, object] | None = None) -> str | None:
    """The first recorded path whose content (or absence) differs from ``reads``, or None.
    ``memo`` keeps digests between calls (pages share most of what they read: the packages
    toolnexus imports); pass the same dict for one build, never across builds."""
    memo = {} if memo is None else memo
    for path, digest in reads.items():
        if path not in memo:
            memo[path] = _digest(path)
        now = memo[path]
        if now is _NOT_A_FILE or now != digest:
            return path
    return None


@dataclass(frozen=True)
class FenceFailure:
    """A fence that failed: the page, the 1-based page line the error was raised at (the
    fence's opening line when no line of it is in the traceback) and the exception, one line."""

    path: str
    line: int
    message: str

    def problem(self) -> Problem:
        return Problem(
            Location(Path(self.path), self.line),
            f"Python fence failed: {self.message}",
            (
                "each page's fences run in an interpreter of their own: nothing another page's fences "
                "set (environment, files in the working directory, imports) is there",
            ),
        )


@dataclass(frozen=True)
class PageRun:
    """What one pytest process recorded: ``executed`` fences as (absolute page path, line of
    the opening fence) that passed, the ``failed`` ones, and ``reads`` (see :class:`ReadRecorder`)."""

    executed: frozenset[tuple[str, int]]
    failed: tuple[FenceFailure, ...] = ()
    reads: dict[str, str | None] = field(default_factory=dict)

    def save(self, path: Path) -> None:
        """Write as JSON, atomically."""
        write_atomic(
            Path(path),
            json.dumps(
                {
                    "executed": sorted([p, line] for p, line in self.executed),
                    "failed": [[f.path, f.line, f.message] for f in self.failed],
                    "reads": self.reads,
                },
                indent=1,
            )
            + "\n",
        )

    @classmethod
    def load(cls, path: Path) -> "PageRun":
        """Read what :meth:`save` wrote; raises OSError, ValueError, KeyError or TypeError on a
        missing or damaged file."""
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return cls(
            frozenset((str(p), int(line)) for p, line in data["executed"]),
            tuple(FenceFailure(str(p), int(line), str(m)) for p, line, m in data["failed"]),
            {str(k): v for k, v in data["reads"].items()},
        )


@dataclass(frozen=True)
class ProcessState:
    """Environment variables, working directory and ``sys.path`` at one moment."""

    environ: dict[str, str]
    cwd: str
    path: list[str]

    @classmethod
    def capture(cls) -> "ProcessState":
        return cls(dict(os.environ), os.getcwd(), list(sys.path))

    def restore(self) -> None:
        """Put the captured state back (variables added since are removed)."""
        os.environ.clear()
        os.environ.update(self.environ)
        os.chdir(self.cwd)
        sys.path[:] = self.path
