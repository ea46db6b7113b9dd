"""Named sections of a snippet file, marked the way pymdownx.snippets marks them.

A section is the text between ``--8<-- [start:name]`` and ``--8<-- [end:name]`` (in a comment
of the snippet's language). pymdownx.snippets is lenient: an unclosed section silently runs to
the end of the file and a duplicated start is ignored. Pages must never show more or less than
what was meant, so this parser is strict and turns both into errors naming the file and line.

The marker grammar is pymdownx's own regular expression, so what we verify and what the page
includes can never disagree about where a section starts.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

from pymdownx.snippets import SnippetPreprocessor

from verified_docs.errors import Location, Problem, SourceError

_MARKER = SnippetPreprocessor.RE_SNIPPET_SECTION
_INCLUDE = SnippetPreprocessor.RE_ALL_SNIPPETS
_REWRITTEN = (
    "so the page would show other bytes than the program that ran, and the copy button would copy them; "
    "write the line another way (a string built from parts, say: '--8' '<--')"
)
# What may precede a marker on its line: indentation and a comment opener, nothing else.
_COMMENT_BEFORE = re.compile(r"^\s*(#|//|--|;|/\*|<!--|%)\s*$")


@dataclass(frozen=True)
class Section:
    """One named section. ``start_line``/``end_line`` are the 1-based marker lines;
    ``text`` is what pymdownx.snippets (with ``dedent_subsections``) includes: the lines between
    the markers, minus nested markers, dedented, without a trailing newline."""

    path: Path
    name: str
    start_line: int
    end_line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.start_line}#{self.name}"


def read_utf8(path: Path) -> str:
    """The text of ``path``; raises :class:`SourceError` at the line of the first byte that is
    not UTF-8 (a ``coding:`` cookie is allowed by Python but not by this site)."""
    raw = Path(path).read_bytes()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise SourceError.at(
            Path(path),
            line,
            f"byte 0x{raw[e.start]:02x} is not UTF-8; save the file as UTF-8 "
            "(pages show it, and readers copy it, as UTF-8)",
        ) from None


def _rewritten(line: str) -> str | None:
    """Why pymdownx.snippets would change ``line`` when a page includes its file, or None: it
    follows an include line (``--8<-- "file"``, or a ``--8<--`` block) and drops the first
    ``;`` of an escaped include or section marker."""
    include = _INCLUDE.match(line)
    if include and include.group("escape"):
        return "an escaped --8<-- line: pymdownx.snippets drops its first ';' when a page includes this file"
    if include:
        return "a --8<-- include line: pymdownx.snippets would put another file here when a page includes this one"
    marker = _MARKER.match(line)
    if marker and marker.group("escape"):
        return "an escaped section marker: pymdownx.snippets drops its first ';' when a page includes this file"
    return None


def _rewrites(path: Path, lines: list[str]) -> list[Problem]:
    """A problem at each of ``lines`` (of ``path``) that :func:`_rewritten` finds."""
    return [
        Problem(Location(path, number), why, (_REWRITTEN,))
        for number, line in enumerate(lines, start=1)
        if "8<-" in line and (why := _rewritten(line))
    ]


def parse_sections(path: Path, source: str | None = None) -> dict[str, Section]:
    """Return every section of ``path`` by name.

    Raises :class:`SourceError` listing every unclosed, duplicated or stray marker, every line
    pymdownx.snippets would rewrite when a page includes the file (an include line, an escaped
    marker), or at the first byte that is not UTF-8 (pages and their copy buttons carry the file
    as UTF-8).
    """
    path = Path(path)
    text = read_utf8(path) if source is None else source
    lines = text.splitlines()
    open_at: dict[str, int] = {}  # name -> 1-based start line of the section being read
    duplicates: dict[str, int] = {}  # name -> ends to swallow, one per reported duplicate start
    bodies: dict[str, list[str]] = {}
    found: dict[str, Section] = {}
    problems = _rewrites(path, lines)
    for number, line in enumerate(lines, start=1):
        m = _MARKER.match(line) if "8<-" in line else None
        if m is None or m.group("escape"):  # an escaped marker is one of the rewrites
            for name in open_at:
                bodies[name].append(line)
            continue
        name, kind = m.group("name"), m.group("type").lower()
        if not _COMMENT_BEFORE.match(m.group("pre")):
            # pymdownx would still treat it as a marker, cutting the code in two.
            problems.append(
                Problem(
                    Location(path, number),
                    f"section marker '{m.group('section').strip()}' is not in a comment of its own "
                    "(inside a string literal?); put it on its own line after the comment sign",
                )
            )
            continue
        if kind == "start":
            if name in open_at or name in found:
                first = open_at.get(name) or found[name].start_line
                problems.append(
                    Problem(Location(path, number), f"section '{name}' started again (first started at line {first})")
                )
                if name not in open_at:
                    duplicates[name] = duplicates.get(name, 0) + 1
                continue
            open_at[name] = number
            bodies[name] = []
        else:
            if name not in open_at:
                if duplicates.get(name):
                    duplicates[name] -= 1  # the end of a duplicate already reported
                    continue
                problems.append(Problem(Location(path, number), f"section '{name}' ends here but was never started"))
                continue
            start = open_at.pop(name)
            body = textwrap.dedent("\n".join(bodies.pop(name)))
            found[name] = Section(path, name, start, number, body.rstrip("\n"))
    for name, start in open_at.items():
        problems.append(
            Problem(Location(path, start), f"section '{name}' is never closed (expected '--8<-- [end:{name}]')")
        )
    if problems:
        raise SourceError(*problems)
    return found


def get_section(path: Path, name: str, *, referenced_from: Location | None = None) -> Section:
    """Return section ``name`` of ``path``; an unknown name raises :class:`SourceError` at
    ``referenced_from`` (or the file) and lists the valid names."""
    sections = parse_sections(path)
    if name not in sections:
        where = referenced_from or Location(Path(path))
        valid = ", ".join(sorted(sections)) or "(the file has no sections)"
        raise SourceError(Problem(where, f"unknown section '{name}' in {path}", (f"valid sections: {valid}",)))
    return sections[name]


# The key under which the ledger keeps the whole program (every file line that is not a marker),
# next to its named sections; no section can be called this (names are word characters).
WHOLE = "*"


@dataclass(frozen=True)
class ProgramView:
    """A snippet file as a page shows it whole: pymdownx.snippets includes a file without a
    section name minus its section marker lines. ``text`` has no trailing newline;
    ``file_lines[i]`` is the 1-based file line shown as line ``i + 1``."""

    path: Path
    text: str
    file_lines: tuple[int, ...]

    def shown_range(self, section: Section) -> tuple[int, int]:
        """The first and last shown line (1-based, inclusive) of ``section``'s body; an empty
        section gives the line after its start marker twice."""
        inside = [i for i, n in enumerate(self.file_lines, start=1) if section.start_line < n < section.end_line]
        if not inside:
            after = sum(1 for n in self.file_lines if n < section.start_line) + 1
            return after, after
        return inside[0], inside[-1]


def program_view(path: Path, source: str | None = None) -> ProgramView:
    """The whole of ``path`` (its text ``source`` when given) as pymdownx.snippets includes it:
    section markers dropped, every other line as it is. Raises :class:`SourceError` for bytes
    that are not UTF-8, and at every line pymdownx would rewrite (an include line, an escaped
    marker: see :func:`parse_sections`)."""
    path = Path(path)
    lines = (read_utf8(path) if source is None else source).splitlines()
    problems = _rewrites(path, lines)
    if problems:
        raise SourceError(*problems)
    kept = [(n, line) for n, line in enumerate(lines, start=1) if "8<-" not in line or not _MARKER.match(line)]
    return ProgramView(path, "\n".join(t for _, t in kept).rstrip("\n"), tuple(n for n, _ in kept))
