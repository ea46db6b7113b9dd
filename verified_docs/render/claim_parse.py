"""Find a page's claims: each ``<!-- claim ... -->`` comment outside code, read into a
:class:`Claim` with the words of the paragraph it backs (the grammar is in
:mod:`verified_docs.render.claims`). Checking them is the job of the ``claim_*`` checkers.

A claim is one line, or a block: its first line holds the attributes and no ``-->``; the
lines below it, up to a line ``-->`` of its own, are a YAML mapping of more attributes
(read with ruamel.yaml, as scenario.yaml is), so a value needs no quoting inside quotes.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from verified_docs.errors import Location, Problem, SourceError
from verified_docs.render.directive import fenced_lines

OPENING = re.compile(r"<!--\s*claim\b")
_ATTR = re.compile(r"""\s+(?P<key>[a-z_]+)=(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)')""")
ATTRIBUTES = ("evidence", "value", "contains", "since", "quote", "why")
# What each kind of evidence takes besides evidence and quote: (exactly one of these, allowed).
_KIND_ATTRIBUTES = {
    "scenario": ("value", "contains"),
    "matrix": ("since",),
    "source": ("contains",),
    "rule": ("contains",),
}
# Kinds whose attribute besides evidence and quote may be left out (rule: with no contains).
_OPTIONAL = ("rule",)
_SOURCE_FILE = re.compile(r"toolnexus(/[A-Za-z_][A-Za-z0-9_]*)+\.py")
# A line that opens a block (list item, heading, table row, admonition, tab, directive) ends
# the paragraph before it, so a claim's words are looked for in its own item or row.
_BLOCK_START = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|#{1,6}\s|\||!!!|\?\?\?|===|<!--)")


@dataclass(frozen=True)
class Claim:
    """One claim at ``where`` (page, 1-based line); ``span`` is the comment's (start, end)
    column in that line, and ``lines`` the page lines it takes (more than 1 for a block, whose
    comment runs from ``span``'s start to its line ``-->``). ``sentence`` is the paragraph's
    text from the previous claim (or the paragraph's start) up to this one: where ``quote``
    must stand. ``value`` is YAML text, as written (a block's without the quotes around it).
    ``why`` (``source:`` claims only) is the clause saying why no run can show the behaviour,
    which a sentence resting on source alone must give (:mod:`~verified_docs.render.claim_why`).
    ``paragraph`` is the whole paragraph's text without its claim comments (lines joined by
    ``\n``), and ``at`` the (start, end) offsets in it of ``sentence``: the end is where the
    claim stands (:mod:`~verified_docs.render.claim_record` finds the whole sentence there)."""

    where: Location
    span: tuple[int, int]
    evidence: str
    quote: str
    sentence: str
    value: str | None = None
    contains: str | None = None
    since: str | None = None
    lines: int = 1
    paragraph: str = ""
    why: str | None = None
    at: tuple[int, int] = (0, 0)

    @property
    def kind(self) -> str:
        """``scenario``, ``matrix``, ``source`` or ``rule``."""
        head = self.evidence.split(":", 1)[0]
        return head if head in ("matrix", "source", "rule") and ":" in self.evidence else "scenario"

    def __str__(self) -> str:
        return f"{self.where}: {self.evidence}"


_CODE_SPAN_ACROSS = re.compile(r"(`+)([\s\S]+?)(?<!`)\1(?!`)")
# A block claim's first line has no -->: its comment is hidden to the line's end.
_CLAIM_COMMENT = re.compile(r"<!--\s*claim\b.*?(?:-->|$)", re.M)


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


def _claim(where: Location, span: tuple[int, int], attrs: dict[str, str], sentence: str, lines: int = 1) -> Claim:
    """The claim at ``where`` with the attributes ``attrs``, taking ``lines`` page lines.
    Raises :class:`SourceError` at ``where`` when it is malformed."""
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
        lines,
        why=attrs.get("why"),
    )
    if claim.kind == "scenario" and not re.fullmatch(r"[^#\s]+#[^.\s]+(\.[^.\s]+)+", claim.evidence):
        raise _malformed(
            where,
            f"evidence {claim.evidence!r} is none of <scenario>#<run>.<key>, matrix:<scenario>, source:toolnexus/<file>.py, rule:<id>",
        )
    if claim.kind == "source" and (not _SOURCE_FILE.fullmatch(claim.evidence[len("source:") :])):
        raise _malformed(
            where, f"{claim.evidence!r} names no file of the package (expected source:toolnexus/<file>.py)"
        )
    takes = _KIND_ATTRIBUTES[claim.kind]
    given = [k for k in ("value", "contains", "since") if k in attrs]
    wanted = (0, 1) if claim.kind in _OPTIONAL else (1,)
    if len([k for k in given if k in takes]) not in wanted or set(given) - set(takes):
        raise _malformed(where, f"a {claim.kind} claim takes {' or '.join(takes)}, got {', '.join(given) or 'none'}")
    return claim


_UNCLOSED = (
    "it must end with --> on the same line or, written over several lines, with a line --> of its own "
    "before the paragraph ends"
)


def _block_end(lines: list[str], first: int, page: Path) -> int:
    """The 1-based line ``-->`` that ends the block claim opened on line ``first``. Raises
    :class:`SourceError` when a blank line or the page's end comes first, a line of the block
    holds ``-->`` beside other text, or the paragraph goes on after it."""
    for number in range(first + 1, len(lines) + 1):
        text = lines[number - 1]
        if not text.strip():
            break
        if text.strip() == "-->":
            if number < len(lines) and lines[number].strip():
                raise _malformed(
                    Location(page, number + 1),
                    "a claim written over several lines ends its paragraph: leave the line after its --> blank",
                )
            return number
        if "-->" in text:
            raise _malformed(
                Location(page, number), "a claim written over several lines ends with --> on a line of its own"
            )
    raise _malformed(Location(page, first), _UNCLOSED)


@lru_cache(maxsize=1)
def _yaml() -> Any:
    # ruamel.yaml is imported on the first block claim only, as scenario.yaml's reader does.
    from ruamel.yaml import YAML

    return YAML(typ="rt")


def _block_attributes(lines: list[str], first: int, last: int, page: Path) -> dict[str, tuple[str, int]]:
    """The attributes that the lines between ``first`` (the block claim's first line) and
    ``last`` (its ``-->``) give as YAML, each with its 1-based page line: ``value`` as the
    YAML text written after ``value:``, the others as the text they hold. Raises
    :class:`SourceError` at the line for YAML that cannot be read or is no mapping, an unknown
    name, or a name other than ``value`` that holds no text."""
    from ruamel.yaml.comments import CommentedMap
    from ruamel.yaml.error import MarkedYAMLError

    text = textwrap.dedent("\n".join(lines[first : last - 1]))
    try:
        doc = _yaml().load(text)
    except MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        where = Location(page, first + 1 + (mark.line if mark else 0))
        raise _malformed(where, f"its YAML lines cannot be read: {e.problem or e}") from None
    if doc is None:
        return {}
    if not isinstance(doc, CommentedMap):
        raise _malformed(
            Location(page, first + 1), "the lines of a claim before its --> must be YAML `name: value` lines"
        )
    starts = [0]
    for body_line in text.split("\n"):
        starts.append(starts[-1] + len(body_line) + 1)
    keys = list(doc)
    found: dict[str, tuple[str, int]] = {}
    for i, key in enumerate(keys):
        key_line, _ = doc.lc.key(key)
        where = Location(page, first + 1 + key_line)
        if key not in ATTRIBUTES:
            raise _malformed(where, f"unknown attribute '{key}'", f"valid attributes: {', '.join(ATTRIBUTES)}")
        if key == "value":
            value_line, value_col = doc.lc.value(key)
            end = starts[doc.lc.key(keys[i + 1])[0]] if i + 1 < len(keys) else len(text)
            # A value below its name (a nested mapping or list) is read without its indent.
            start = starts[value_line] + (value_col if value_line == key_line else 0)
            found[key] = (textwrap.dedent(text[start:end]).strip() or "null", where.line)
        elif isinstance(doc[key], str):
            found[key] = (doc[key], where.line)
        else:
            raise _malformed(where, f"attribute '{key}' holds no text: {doc[key]!r}; put it in quotes")
    return found


def _block_claim(lines: list[str], where: Location, span: tuple[int, int], rest: str, sentence: str) -> Claim:
    """The block claim opened at ``where`` (``rest`` is its first line after ``claim``).
    Raises :class:`SourceError` at the line at fault when it is malformed, or an attribute is
    given both on its first line and below it."""
    last = _block_end(lines, where.line, where.path)
    attrs = _attributes(where, rest)
    for key, (text, line) in _block_attributes(lines, where.line, last, where.path).items():
        if key in attrs:
            raise _malformed(
                Location(where.path, line), f"attribute '{key}' is given twice: on the claim's first line and here"
            )
        attrs[key] = text
    return _claim(where, span, attrs, sentence, last - where.line + 1)


def _one_claim(lines: list[str], where: Location, span: tuple[int, int], sentence: str) -> Claim:
    """The claim whose comment opens at column ``span[0]`` of line ``where`` and ends with its
    ``-->`` at column ``span[1]`` (-1: a block claim, closed on a line below)."""
    line, (start, end) = lines[where.line - 1], span
    opening = OPENING.match(line, start)
    assert opening is not None
    if end < 0:
        return _block_claim(lines, where, (start, len(line)), line[opening.end() :], sentence)
    return _claim(where, (start, end + 3), _attributes(where, line[opening.end() : end]), sentence)


def parse_claims(markdown: str, page: Path) -> list[Claim]:
    """Every claim of ``markdown`` (outside code fences and inline code), in order.

    Raises :class:`SourceError` listing every malformed claim at its ``page:line``: a claim
    not closed on its line or by a line ``-->`` before the paragraph ends, an attribute that
    cannot be read or is unknown or repeated, YAML lines that cannot be read, a missing
    ``evidence`` or ``quote``, an evidence of no known kind, or the wrong value attribute for
    its kind.

    Advice marks (:func:`~verified_docs.render.factual.strip_advice`) are taken out first, in
    place, so a claim's sentence and columns are those of the page as rendered.
    """
    from verified_docs.render.factual import strip_advice  # factual reads claims: imported here, not at the top

    return list(_parse(strip_advice(markdown), Path(page)))


@lru_cache(maxsize=256)
def _parse(markdown: str, page: Path) -> tuple[Claim, ...]:
    # Each page is read twice in a build (scan_site, then its own rendering): parse it once.
    claims: list[Claim] = []
    problems: list[Problem] = []
    paragraph: list[str] = []
    previous = ""  # the sentence of the paragraph's previous claim
    # The whole paragraph without its claims, and its claims' (index, start, end) in it: each
    # claim gets the paragraph once it has ended.
    whole, start, previous_start = "", 0, 0
    pending: list[tuple[int, int, int]] = []

    def ended() -> None:
        nonlocal whole, start, previous_start
        for i, begin, end in pending:
            claims[i] = replace(claims[i], paragraph=whole, at=(begin, end))
        whole, start, previous_start = "", 0, 0
        pending.clear()

    lines, masked_page = markdown.splitlines(), masked_lines(markdown)
    block_end = 0  # the last line of the block claim just read: its lines are not text
    for number, (line, fenced) in enumerate(zip(lines, fenced_lines(markdown), strict=True), start=1):
        if number <= block_end:
            continue
        if fenced or not line.strip() or _BLOCK_START.match(line):
            paragraph, previous = [], ""
            ended()
        if fenced:
            continue
        masked, pos = masked_page[number - 1], 0
        for m in OPENING.finditer(masked):
            if m.start() < pos:
                continue  # inside the previous claim's comment
            where = Location(Path(page), number)
            end = masked.find("-->", m.end())
            sentence = " ".join(paragraph + [line[pos : m.start()]])
            whole += line[pos : m.start()]
            # Claims one after another back the same words (several pieces of evidence).
            sentence, begin = (sentence, start) if sentence.strip() else (previous, previous_start)
            try:
                claims.append(_one_claim(lines, where, (m.start(), end), sentence))
                block_end = number + claims[-1].lines - 1
                pending.append((len(claims) - 1, begin, len(whole)))
            except SourceError as e:
                problems += e.problems
            start, previous_start = len(whole), begin
            if end < 0:
                paragraph, pos, previous = [], len(line), sentence
                break
            paragraph, pos, previous = [], end + 3, sentence
        paragraph.append(line[pos:])
        whole += line[pos:] + "\n"
    ended()
    if problems:
        raise SourceError(*problems)
    return tuple(claims)
