"""One error shape for the whole pipeline: ``path:line: what``, details indented below."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Location:
    """A place in a source file. ``line`` is 1-based; 0 means "the file as a whole"."""

    path: Path
    line: int = 0

    def __str__(self) -> str:
        return f"{display_path(self.path)}:{self.line}" if self.line else display_path(self.path)


def display_path(path: Path) -> str:
    """``path`` relative to the working directory when it lies below it, else as given."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


@dataclass(frozen=True)
class Problem:
    """One thing that is wrong, at one place. ``details`` are extra lines (a diff, a request)."""

    where: Location
    what: str
    details: tuple[str, ...] = field(default_factory=tuple)

    def __str__(self) -> str:
        head = f"{self.where}: {self.what}"
        if not self.details:
            return head
        return head + "\n" + "\n".join("    " + d for d in self.details)


class SourceError(Exception):
    """Raised for bad input that stops a stage: a malformed scenario, a missing section.

    ``problems`` holds one or more :class:`Problem`; ``str()`` lists them all.
    """

    def __init__(self, *problems: Problem) -> None:
        if not problems:
            raise ValueError("SourceError needs at least one Problem")
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def at(cls, path: Path, line: int, what: str, *details: str) -> "SourceError":
        """Shorthand for a single problem at ``path:line``."""
        return cls(Problem(Location(Path(path), line), what, tuple(details)))
