"""Find example directives in a page's Markdown.

A page asks for a verified example with one line of its own::

    <!-- verified-example scenario="suspension/approval-gate" program="approval_gate" section="tool" -->

``scenario`` is the folder under ``snippets/``; ``program`` the program's file stem (the same
stem in every language); ``section`` a named section of it. Optional: ``output="no"`` hides
the golden output, ``output="only"`` shows only the output; ``run="name"`` picks whose output
to show when the same program runs in several runs of the scenario. As an HTML comment, the directive
is invisible wherever the hook does not run, and never looks like code.

A second kind lists the evidence a scenario's build checked, generated from its
``scenario.yaml`` so that the page's claims and the checks cannot drift apart::

    <!-- verified-evidence scenario="suspension/answer-later" -->

and two more render generated tables: the SPEC §10 contract (rules and the scenarios that
show them) and the release matrix (which scenario passes on which toolnexus release)::

    <!-- verified-contract -->
    <!-- verified-matrix -->

and one lists every toolnexus source line that a claim on any page cites (see :mod:`verified_docs.render.claims`)::

    <!-- verified-sources -->

and one gives the install line, ``pip install toolnexus==<pin>`` and the Python version, both
read from ``pyproject.toml`` when the page is built (see :mod:`verified_docs.render.install`)::

    <!-- verified-install -->

and one gives reference entries for toolnexus names, read from the installed package by griffe
(signatures, defaults, docstrings, source lines; see :mod:`verified_docs.render.api_reference`)::

    <!-- verified-api-reference names="toolnexus.pending toolnexus.create_client(wait_for)" -->

and one draws what a scenario's runs did, as sequence diagrams from the recorded runs (every
run in order, or only ``run="name"``; see :mod:`verified_docs.verify.timeline`)::

    <!-- verified-diagram scenario="suspension/answer-later" -->
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from verified_docs.errors import Location, SourceError

DIRECTIVE = re.compile(
    r"^(?P<indent>[ \t]*)<!--\s*verified-(?P<kind>example|evidence|contract|matrix|sources|install|diagram|api-reference)\b(?P<attrs>.*?)-->\s*$"
)
_ATTR = re.compile(r'\s*(?P<key>[a-z_]+)="(?P<value>[^"]*)"')
OUTPUT_CHOICES = ("yes", "no", "only")
REQUIRED = {
    "example": ("scenario", "program", "section"),
    "evidence": ("scenario",),
    "contract": (),
    "matrix": (),
    "sources": (),
    "install": (),
    "diagram": ("scenario",),
    "api-reference": ("names",),
}
VALID = {
    "example": REQUIRED["example"] + ("output", "run"),
    "evidence": REQUIRED["evidence"],
    "contract": (),
    "matrix": (),
    "sources": (),
    "install": (),
    "diagram": ("scenario", "run"),
    "api-reference": ("names",),
}
# Anything that looks like one of our comments but is not a valid directive (a misspelt kind, a
# directive sharing its line) would otherwise vanish silently from the page, so it is an error.
_NEAR_MISS = re.compile(r"<!--\s*verified", re.IGNORECASE)
# A fence opens with three or more backticks or tildes (a backtick fence's info string holds no
# backtick: "```a```" is inline code) and closes with a run of the same character at least as
# long, followed by nothing but spaces (CommonMark 4.5). Any indentation: fences nest in tabs.
_FENCE = re.compile(r"^[ \t]*(?P<mark>`{3,}|~{3,})(?P<info>.*)$")
# What each directive comes out as carries this attribute (value: ``<kind>-<line>``), so the
# guard can tell, in the HTML alone, which directives came out (see :func:`marker`).
MARKER_ATTRIBUTE = "data-vd-directive"


def _fence_toggle(line: str, fence: str | None) -> tuple[bool, str | None]:
    """Whether ``line`` opens or closes a code fence, given the mark of the fence open before
    it (None outside a fence), and the mark of the fence open after it. An opening backtick
    fence has no backtick in its info string; a closing one has no info and at least as many
    of the same character."""
    f = _FENCE.match(line)
    if f:
        mark, info = f.group("mark"), f.group("info")
        if fence is None and not (mark[0] == "`" and "`" in info):
            return True, mark
        if fence is not None and mark[0] == fence[0] and len(mark) >= len(fence) and not info.strip():
            return True, None
    return False, fence


def fenced_lines(markdown: str) -> list[bool]:
    """For each line of ``markdown`` (``splitlines()``), whether it is a code fence's opening or
    closing line or lies inside a fence, by the same rules as :func:`find_directives`."""
    out: list[bool] = []
    fence: str | None = None
    for line in markdown.splitlines():
        toggled, fence = _fence_toggle(line, fence)
        out.append(toggled or fence is not None)
    return out


def fences_closed(markdown: str) -> bool:
    """Whether every code fence of ``markdown`` is closed, by the rules of :func:`find_directives`
    (which refuses a page whose fence is left open, at that fence's line)."""
    fence: str | None = None
    for line in markdown.splitlines():
        _, fence = _fence_toggle(line, fence)
    return fence is None


@dataclass(frozen=True)
class FencedBlock:
    """A code fence written in a page: the 1-based page ``line`` of its opening, its ``info``
    string (``python``, ``mermaid``, ...) and its ``body``, each line as (page line, text as
    the code block shows it: the opening fence's indentation taken off)."""

    line: int
    info: str
    body: tuple[tuple[int, str], ...]


def fenced_blocks(markdown: str, first_line: int = 1) -> list[FencedBlock]:
    """Every closed code fence of ``markdown``, at any depth (in a tab or an admonition too), by
    the rules of :func:`find_directives`; ``first_line`` as there. A fence left open is not
    listed (:func:`find_directives` refuses it)."""
    blocks: list[FencedBlock] = []
    fence: str | None = None
    opening = (0, "", "")  # (line, info, indentation) of the open fence
    body: list[tuple[int, str]] = []
    for number, line in enumerate(markdown.splitlines(), start=first_line):
        toggled, after = _fence_toggle(line, fence)
        if toggled and after is not None:
            f = _FENCE.match(line)
            assert f is not None  # _fence_toggle opened a fence on this line
            indent = line[: len(line) - len(line.lstrip(" \t"))]
            opening, body = (number, f.group("info").strip(), indent), []
        elif toggled:
            blocks.append(FencedBlock(opening[0], opening[1], tuple(body)))
        elif fence is not None:
            indent = opening[2]
            body.append((number, line[len(indent) :] if line.startswith(indent) else line.lstrip(" \t")))
        fence = after
    return blocks


@dataclass(frozen=True)
class Directive:
    """One directive at ``where`` (the page and 1-based line). ``kind`` is ``example``,
    ``evidence``, ``contract``, ``matrix``, ``sources`` or ``diagram``; ``program`` and
    ``section`` are empty for all but ``example``, ``run`` for all but ``example`` and
    ``diagram`` (where empty means every run), ``names`` for all but ``api-reference``."""

    where: Location
    indent: str
    scenario: str
    program: str = ""
    section: str = ""
    output: str = "yes"
    kind: str = "example"
    run: str = ""
    names: str = ""

    def __str__(self) -> str:
        return f"{self.where}: {self.scenario} {self.program}#{self.section}"


def find_directives(markdown: str, page: Path, first_line: int = 1) -> list[Directive]:
    """Every directive in ``markdown`` (outside code fences), in order. ``first_line`` is the
    page line ``markdown`` starts at (after front matter the generator took off), so that
    every line reported is a line of the file.

    Raises :class:`SourceError` naming the page and line for unknown or missing attributes,
    a bad ``output`` value, text the directive grammar cannot read, or a code fence that is
    never closed (it would swallow every directive after it, silently).
    """
    return list(_directives_in(markdown, Path(page), first_line))


@lru_cache(maxsize=256)
def _directives_in(markdown: str, page: Path, first_line: int) -> tuple[Directive, ...]:
    """:func:`find_directives`, memoised by the page's text (its directives are frozen): the
    render stage and the guard read every page's directives several times on each author-loop
    save. An error is raised again on each call (``lru_cache`` keeps no exception)."""
    found: list[Directive] = []
    fence: tuple[str, int, str] | None = None  # (mark, line, opening line) of the open fence
    lines = markdown.splitlines()
    for number, line in enumerate(lines, start=first_line):
        toggled, mark = _fence_toggle(line, fence[0] if fence else None)
        if toggled:
            fence = (mark, number, line.strip()) if mark else None
            continue
        if fence is not None:
            continue
        m = DIRECTIVE.match(line)
        if m is not None:
            found.append(_directive(m, page, number))
        elif _NEAR_MISS.search(line):
            raise SourceError.at(
                page,
                number,
                "malformed verified directive (it must be a line of its own: "
                '<!-- verified-example scenario="..." program="..." section="..." -->)',
                f"valid kinds: {', '.join('verified-' + k for k in REQUIRED)}",
            )
    if fence is not None:
        raise _unclosed(fence, lines[fence[1] - first_line + 1 :], page)
    return tuple(found)


def _attributes(kind: str, rest: str, page: Path, number: int) -> dict[str, str]:
    """The attributes of a directive of ``kind`` at ``page:number`` from ``rest``, the text
    after its kind. Raises :class:`SourceError` for text that is no attribute or an attribute
    the kind does not take."""
    attrs: dict[str, str] = {}
    pos = 0
    while pos < len(rest.rstrip()):
        a = _ATTR.match(rest, pos)
        if a is None:
            raise SourceError.at(
                page,
                number,
                f"cannot read the directive's attributes from {rest[pos:].strip()!r}",
                'attributes look like name="value"',
            )
        if a.group("key") not in VALID[kind]:
            raise SourceError.at(
                page, number, f"unknown attribute '{a.group('key')}'", f"valid attributes: {', '.join(VALID[kind])}"
            )
        attrs[a.group("key")] = a.group("value")
        pos = a.end()
    return attrs


def _directive(m: re.Match[str], page: Path, number: int) -> Directive:
    """The directive ``m`` (a :data:`DIRECTIVE` match) found at ``page:number``. Raises
    :class:`SourceError` for a bad attribute, a missing one or a bad ``output`` value."""
    kind = m.group("kind")
    attrs = _attributes(kind, m.group("attrs"), page, number)
    missing = [k for k in REQUIRED[kind] if not attrs.get(k)]
    if missing:
        raise SourceError.at(page, number, f"directive is missing {', '.join(missing)}")
    output = attrs.get("output", "yes")
    if output not in OUTPUT_CHOICES:
        raise SourceError.at(page, number, f"output: expected one of {', '.join(OUTPUT_CHOICES)}, got {output!r}")
    return Directive(
        Location(page, number),
        m.group("indent"),
        attrs.get("scenario", ""),
        attrs.get("program", ""),
        attrs.get("section", ""),
        output,
        kind,
        attrs.get("run", ""),
        attrs.get("names", ""),
    )


def _unclosed(fence: tuple[str, int, str], after: list[str], page: Path) -> SourceError:
    """The error for ``fence`` (mark, line, opening line) never closed on ``page``, naming the
    directives it swallows among the lines ``after`` it."""
    mark, number, opening = fence
    swallowed = [n for n, line in enumerate(after, start=number + 1) if DIRECTIVE.match(line)]
    return SourceError.at(
        page,
        number,
        f"code fence {opening!r} is never closed: it swallows everything after it",
        f"close it with a line holding {mark}"
        + (f"; it hides the verified directive(s) at line(s) {', '.join(map(str, swallowed))}" if swallowed else ""),
    )


def marker_value(directive: Directive) -> str:
    """``<kind>-<line>``: what identifies ``directive`` in the HTML of its page."""
    return f"{directive.kind}-{directive.where.line}"


def marker(directive: Directive) -> str:
    """The HTML attribute (``data-vd-directive="example-12"``) that the block ``directive``
    renders into carries on an element inside it, so the guard can tell what came out."""
    return f'{MARKER_ATTRIBUTE}="{marker_value(directive)}"'


def body_start(source: str, body: str) -> int:
    """The 1-based line of ``source`` (a page file) at which ``body`` (the Markdown a site
    generator passed on after taking off front matter) begins; 1 when nothing was taken off.
    Front matter and the blank lines after it are whole lines, so counting lines suffices."""
    return max(len(source.splitlines()) - len(body.splitlines()), 0) + 1


def pages_by_scenario(docs: Path) -> dict[str, list[str]]:
    """Scenario name -> the pages (posix, relative to ``docs``) holding one of its directives."""
    found: dict[str, list[str]] = {}
    for page in sorted(Path(docs).rglob("*.md")):
        rel = page.relative_to(docs).as_posix()
        for d in find_directives(page.read_text(encoding="utf-8"), page):
            if d.scenario and rel not in found.setdefault(d.scenario, []):
                found[d.scenario].append(rel)
    return found
