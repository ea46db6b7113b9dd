"""Where a program that failed went wrong, read from its standard error: a Python traceback, or
the stack dump the tracer writes shortly before a timeout kill.

In: the scenario's folder, the program's path, its stderr (text) and whether it timed out.
Out: a :class:`CrashSite`: the innermost frame inside the scenario's own files (the program,
or a support module it imported: the line to fix), the exception line, and the frames of the
scenario's files that called it, outermost last. Never raises: text that holds no frame
gives the program's first line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from verified_docs.errors import Location

_FRAME = re.compile(r'File "([^"]+)", line (\d+)')
_TRACEBACK = "Traceback (most recent call last):"
CALLERS = 3  # "called from" lines at most: the caller the author needs, not the whole chain


@dataclass(frozen=True)
class CrashSite:
    """``where``: the innermost frame inside the scenario's folder, else the program's line 1.
    ``exception``: the last traceback's exception line (``ValueError: no answer``), or "".
    ``callers``: the frames of the scenario's files outside ``where`` that led to it, nearest
    first, at most :data:`CALLERS`."""

    where: Location
    exception: str = ""
    callers: tuple[Location, ...] = ()

    def details(self) -> tuple[str, ...]:
        """The lines a failure report puts first: the exception, then each caller."""
        lines = [f"raised {self.exception}"] if self.exception else []
        return (*lines, *(f"called from {c}" for c in self.callers))


def crash_site(folder: Path, program: Path, stderr: str, timed_out: bool) -> CrashSite:
    """Read ``stderr`` of ``program`` (of the scenario in ``folder``) for where it failed (see
    :class:`CrashSite`). A Python traceback lists the innermost frame last; faulthandler's dump
    before a timeout kill lists it first. With chained exceptions, the last traceback (the
    exception that ended the program) is read, unless it passes through none of the scenario's
    files."""
    chunk = stderr
    if not timed_out and _TRACEBACK in stderr:
        last = stderr[stderr.rindex(_TRACEBACK) :]
        if _own_frames(folder, last, timed_out):
            chunk = last
    own = _own_frames(folder, chunk, timed_out)
    if not own:
        return CrashSite(Location(program, 1), "" if timed_out else _exception_line(chunk))
    callers: list[Location] = []
    for frame in own[1:]:
        if frame != own[0] and (not callers or callers[-1] != frame) and len(callers) < CALLERS:
            callers.append(frame)
    return CrashSite(own[0], "" if timed_out else _exception_line(chunk), tuple(callers))


def _own_frames(folder: Path, text: str, timed_out: bool) -> list[Location]:
    """The frames of ``text`` in files below ``folder``, innermost first, each at its path
    below ``folder`` (as the scenario names it, not through a symlink)."""
    base = folder.resolve()
    found = _FRAME.findall(text)
    frames = []
    for file_name, line in found if timed_out else reversed(found):
        try:
            rel = Path(file_name).resolve().relative_to(base)
        except ValueError:
            continue
        frames.append(Location(folder / rel, int(line)))
    return frames


def _exception_line(text: str) -> str:
    """The exception line of the traceback in ``text``: the first line after its last frame that
    is not indented (``KeyError: 'approver'``), or ""."""
    frames = list(_FRAME.finditer(text))
    if not frames:
        return ""
    for line in text[frames[-1].end() :].splitlines()[1:]:
        if line.strip() and not line[0].isspace():
            return line.strip()
    return ""
