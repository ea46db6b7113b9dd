"""Find a page's claims: each ``<!-- claim ... -->`` comment outside code, read into a
:class:`Claim` with the words of the paragraph it backs (the grammar is in
:mod:`verified_docs.render.claims`). Checking them is the job of the ``claim_*`` checkers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from verified_docs.errors import Location, Problem, SourceError
from verified_docs.render.directive import fenced_lines

OPENING = re.compile(r"<!--\s*claim\b")
_ATTR = re.compile(r"""\s+(?P<key>[a-z_]+)=(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)')""")
ATTRIBUTES = ("evidence", "value", "contains", "since", "quote")
# What each kind of evidence takes besides evidence and quote: (exactly one of these, allowed).
_KIND_ATTRIBUTES = {"scenario": ("value", "contains"), "matrix": ("since",), "source": ("contains",)}
_SOURCE_FILE = re.compile(r"toolnexus(/[A-Za-z_][A-Za-z0-9_]*)+\.py")
# A line that opens a block (list item, heading, table row, admonition, tab, directive) ends
# the paragraph before it, so a claim's words are looked for in its own item or row.
_BLOCK_START = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|#{1,6}\s|\||!!!|\?\?\?|===|<!--)")


@dataclass(frozen=True)
class Claim:
    """One claim at ``where`` (page, 1-based line); ``span`` is the comment's (start, end)
    column in that line. ``sentence`` is the paragraph's text from the previous claim (or the
    paragraph's start) up to this one: where ``quote`` must stand."""

    where: Location
    span: tuple[int, int]
    evidence: str
    quote: str
    sentence: str
    value: str | None = None
    contains: str | None = None
    since: str | None = None

    @property
    def kind(self) -> str:
        """``scenario``, ``matrix`` or ``source``."""
        head = self.evidence.split(":", 1)[0]
        return head if head in ("matrix", "source") and ":" in self.evidence else "scenario"

    def __str__(self) -> str:
        return f"{self.where}: {self.evidence}"


_CODE_SPAN_ACROSS = re.compile(r"(`+)([\s\S]+?)(?<!`)\1(?!`)")
_CLAIM_COMMENT = re.compile(r"<!--\s*claim\b.*?-->")


def masked_lines(markdown: str) -> list[str]:
    """Each line of ``markdown`` with inline code blanked (same length), code spans found per
    paragraph: a span may open on one line and close on the next, as Markdown allows, and a
    claim after it on the second line is still text (masking line by line paired the closing
    backtick with a later one and hid the claim). Fenced lines come back as they are. While
    spans are looked for, claim comments count as plain text: their attributes may hold
    backticks."""
    lines = markdown.splitlines()
    out = list(lines)
    group: list[int] = []

    def flush() -> None:
        if not group:
            return
        text = "\n".join(lines[i] for i in group)
        hidden = _CLAIM_COMMENT.sub(lambda m: "\0" * len(m.group(0)), text)
        chars = list(text)
        for m in _CODE_SPAN_ACROSS.finditer(hidden):
            for k in range(m.start(), m.end()):
                if chars[k] != "\n":
                    chars[k] = " "
        for i, masked in zip(group, "".join(chars).split("\n"), strict=True):
            out[i] = masked
        group.clear()

    for i, (line, fenced) in enumerate(zip(lines, fenced_lines(markdown), strict=True)):
        if fenced or not line.strip() or _BLOCK_START.match(line):
            flush()
        if not fenced and line.strip():
            group.append(i)
    flush()
    return out


def _malformed(where: Location, what: str, *details: str) -> SourceError:
    """The error a malformed claim at ``where`` raises."""
    return SourceError(Problem(where, f"malformed claim: {what}", details))


def _attributes(where: Location, rest: str) -> dict[str, str]:
    """The attributes of a claim's text after ``claim``. Raises :class:`SourceError` at
    ``where`` when they cannot be read, or one is unknown or given twice."""
    attrs: dict[str, str] = {}
    pos, rest = 0, rest.rstrip()
    while pos < len(rest):
        a = _ATTR.match(rest, pos)
        if a is None:
            raise _malformed(
                where, f'cannot read its attributes from {rest[pos:].strip()!r} (they look like name="value")'
            )
        key = a.group("key")
        if key not in ATTRIBUTES:
            raise _malformed(where, f"unknown attribute '{key}'", f"valid attributes: {', '.join(ATTRIBUTES)}")
        if key in attrs:
            raise _malformed(where, f"attribute '{key}' is given twice")
        attrs[key] = a.group("dq") if a.group("dq") is not None else a.group("sq")
        pos = a.end()
    return attrs


def _claim(where: Location, span: tuple[int, int], rest: str, sentence: str) -> Claim:
    """The claim at ``where`` whose comment, after ``claim``, is ``rest``. Raises
    :class:`SourceError` at ``where`` when it is malformed."""
    attrs = _attributes(where, rest)
    for key, what in (("evidence", "what backs the sentence"), ("quote", "the words of the sentence it backs")):
        if not attrs.get(key):
            raise _malformed(where, f'it has no {key}="..." ({what})')
    claim = Claim(
        where,
        span,
        attrs["evidence"],
        attrs["quote"],
        sentence,
        attrs.get("value"),
        attrs.get("contains"),
        attrs.get("since"),
    )
    if claim.kind == "scenario" and not re.fullmatch(r"[^#\s]+#[^.\s]+(\.[^.\s]+)+", claim.evidence):
        raise _malformed(
            where,
            f"evidence {claim.evidence!r} is none of <scenario>#<run>.<key>, matrix:<scenario>, source:toolnexus/<file>.py",
        )
    if claim.kind == "source" and (not _SOURCE_FILE.fullmatch(claim.evidence[len("source:") :])):
        raise _malformed(
            where, f"{claim.evidence!r} names no file of the package (expected source:toolnexus/<file>.py)"
        )
    takes = _KIND_ATTRIBUTES[claim.kind]
    given = [k for k in ("value", "contains", "since") if k in attrs]
    if len([k for k in given if k in takes]) != 1 or set(given) - set(takes):
        raise _malformed(where, f"a {claim.kind} claim takes {' or '.join(takes)}, got {', '.join(given) or 'none'}")
    return claim


def parse_claims(markdown: str, page: Path) -> list[Claim]:
    """Every claim of ``markdown`` (outside code fences and inline code), in order.

    Raises :class:`SourceError` listing every malformed claim at its ``page:line``: a claim
    not closed on its line, an attribute that cannot be read or is unknown or repeated, a
    missing ``evidence`` or ``quote``, an evidence of no known kind, or the wrong value
    attribute for its kind.
    """
    return list(_parse(markdown, Path(page)))


@lru_cache(maxsize=256)
def _parse(markdown: str, page: Path) -> tuple[Claim, ...]:
    # Each page is read twice in a build (scan_site, then its own rendering): parse it once.
    claims: list[Claim] = []
    problems: list[Problem] = []
    paragraph: list[str] = []
    previous = ""  # the sentence of the paragraph's previous claim
    masked_page = masked_lines(markdown)
    for number, (line, fenced) in enumerate(zip(markdown.splitlines(), fenced_lines(markdown), strict=True), start=1):
        if fenced or not line.strip() or _BLOCK_START.match(line):
            paragraph, previous = [], ""
        if fenced:
            continue
        masked, pos = masked_page[number - 1], 0
        for m in OPENING.finditer(masked):
            if m.start() < pos:
                continue  # inside the previous claim's comment
            where = Location(Path(page), number)
            end = masked.find("-->", m.end())
            if end < 0:
                problems.append(Problem(where, "malformed claim: it must end with --> on the same line"))
                pos = len(line)
                break
            sentence = " ".join(paragraph + [line[pos : m.start()]])
            # Claims one after another back the same words (several pieces of evidence).
            sentence = sentence if sentence.strip() else previous
            try:
                claims.append(_claim(where, (m.start(), end + 3), line[m.end() : end], sentence))
            except SourceError as e:
                problems += e.problems
            paragraph, pos, previous = [], end + 3, sentence
        paragraph.append(line[pos:])
    if problems:
        raise SourceError(*problems)
    return tuple(claims)
