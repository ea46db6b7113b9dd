"""One error shape for the whole pipeline: ``path:line: what``, details indented below; under
GitHub Actions also as a workflow command, so the line shows in the pull request's diff.

Every error the machinery raises on purpose derives from :class:`VerifiedDocsError`: here
:class:`SourceError` (bad input, at its file and line), :class:`StageFailed` (a stage of the
build cannot go on) and :class:`UsageError` (a command line naming nothing); beside the code
that raises them, ``VendorError``, ``GeneratorFailed``, ``EnvironmentProblem``,
``ForkServerError`` (also a ``RuntimeError``), ``NetnsError`` (also an ``OSError``) and
``UnexpectedRequest`` (a request the mock model's script does not fit). Any other exception is
a bug.

The convention: a function that checks one thing raises :class:`SourceError` with the one
:class:`Problem` it found; a pass over many things collects, catching ``SourceError`` per item
and gathering ``e.problems`` into a ``list[Problem]``, and raises ``SourceError(*problems)`` at
the end (or returns the list to a caller that collects lists). No function returns a result or
an error (``X | Problem``, ``X | str``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO


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
    """One thing that is wrong, at one place. ``details`` are extra lines (a diff, a request).
    ``title``, when set, names the kind of problem in its annotation (:func:`annotate`) in
    place of the title the reporting stage gives every problem it reports (``bad input``)."""

    where: Location
    what: str
    details: tuple[str, ...] = field(default_factory=tuple)
    title: str = ""

    def __str__(self) -> str:
        head = f"{self.where}: {self.what}"
        if not self.details:
            return head
        return head + "\n" + "\n".join("    " + d for d in self.details)


class VerifiedDocsError(Exception):
    """The root of the errors this machinery raises on purpose; the message is for the reader."""


class SourceError(VerifiedDocsError):
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


class StageFailed(VerifiedDocsError):
    """A stage of the build failed; the message says which and why (details were printed)."""


class UsageError(VerifiedDocsError):
    """A name or value the command line gave that matches nothing; the message is one line that
    lists the valid ones (the command prints it and exits 2)."""


def on_github_actions(env: Mapping[str, str] | None = None) -> bool:
    """True when GitHub Actions runs this process (it sets ``GITHUB_ACTIONS=true``)."""
    return (os.environ if env is None else env).get("GITHUB_ACTIONS") == "true"


def _escape_data(text: str) -> str:
    # GitHub's rules for a workflow command's message: %, CR and LF are percent-encoded.
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    # ...and in a property value (file=, title=), also the separators : and ,
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(
    title: str, what: str, where: Location | None = None, details: Iterable[str] = (), *, root: Path | None = None
) -> str:
    """One GitHub Actions error annotation: ``::error file=F,line=N,title=T::message``.

    ``file`` is ``where.path`` relative to ``root`` (default: ``GITHUB_WORKSPACE``, the
    checkout, else the working directory) with ``/`` separators, and left out, with ``line``,
    for a path outside it (GitHub could not show it in a diff); ``line`` is left out for 0 (the
    whole file). ``details`` join the message on lines of their own. Message and properties are
    escaped as GitHub's workflow-command syntax requires (``%``, CR and LF; ``:`` and ``,`` in
    properties), so a message cannot end the command early or start another."""
    base = Path(root or os.environ.get("GITHUB_WORKSPACE") or Path.cwd()).resolve()
    props = []
    if where is not None:
        try:
            rel = Path(where.path).resolve().relative_to(base).as_posix()
        except ValueError:
            rel = None
        if rel is not None:
            props.append(f"file={_escape_property(rel)}")
            if where.line:
                props.append(f"line={where.line}")
    props.append(f"title={_escape_property(title)}")
    return f"::error {','.join(props)}::{_escape_data(chr(10).join([what, *details]))}"


def annotate(
    problems: Iterable[Problem], title: str, *, stream: TextIO | None = None, env: Mapping[str, str] | None = None
) -> None:
    """Under GitHub Actions, print each problem as :func:`workflow_command` to ``stream``
    (default stdout, where the runner reads commands), titled with its own ``title`` when it
    has one, else ``title``; elsewhere print nothing. The caller prints the problems
    themselves as before: this only adds the annotations."""
    if not on_github_actions(env):
        return
    out = stream or sys.stdout
    for p in problems:
        print(workflow_command(p.title or title, p.what, p.where, p.details), file=out, flush=True)


def annotate_text(
    title: str, message: str, *, stream: TextIO | None = None, env: Mapping[str, str] | None = None
) -> None:
    """:func:`annotate` for a failure with no file to point at (a build that stopped)."""
    if on_github_actions(env):
        print(workflow_command(title, message), file=stream or sys.stdout, flush=True)
