"""The guard's checks of the Markdown twins (:mod:`verified_docs.site.twins`) and of
``llms.txt`` and ``llms-full.txt`` (:mod:`verified_docs.site.llms_txt`), as the guard checks the
HTML (:mod:`verified_docs.site.guard`):

- every page built from ``docs/`` has its twin beside it;
- every code block of a twin is a section, a whole program, a golden output or a diagram the
  ledger records as passed in this build, or a fence that ran, by the same fingerprints the
  HTML's blocks are checked with; and the twin's code blocks are the page's, in order, so each
  program stands whole where the page shows it and each output is the one the page shows;
- no HTML comment (a directive or claim left unrendered), directive marker or claim's markup is
  left in a twin;
- ``llms.txt`` starts with an H1, links every twin exactly once and nothing that is not in the
  site; ``llms-full.txt``'s code blocks are the twins', in ``llms.txt``'s order.

The twins are read as CommonMark (markdown-it), as a reader's Markdown tool reads them.
"""

from __future__ import annotations

import posixpath
import re
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Sequence

from markdown_it.token import Token

from verified_docs.errors import Location, Problem
from verified_docs.ledger import fingerprint
from verified_docs.site.built_html import parse_page, read_html
from verified_docs.site.guard import allowed_blocks, built_page
from verified_docs.site.llms_txt import LLMS_FULL, LLMS_TXT
from verified_docs.site.markdown_blocks import block_tokens
from verified_docs.site.twins import CODE_SPAN, TWIN_SUFFIX

# What the render stage's markup looks like; none of it belongs in Markdown for a reader.
_LEFT_MARKUP = re.compile(r"<!--|data-vd-|vd-claim")
_LIST_LINK = re.compile(r"^- \[[^\]]*\]\(([^)\s]+)\)")


def _code(tokens: Sequence[Token]) -> list[tuple[int, str]]:
    """(1-based line, text) of every code block: fenced or indented."""
    return [(t.map[0] + 1 if t.map else 0, t.content) for t in tokens if t.type in ("fence", "code_block")]


def _markup_left(tokens: Sequence[Token]) -> list[tuple[int, str]]:
    """(line, the text) of raw HTML, or text outside code spans, holding a comment, a marker or
    a claim's markup."""
    found = []
    for t in tokens:
        text = t.content if t.type == "html_block" else CODE_SPAN.sub("", t.content) if t.type == "inline" else ""
        m = _LEFT_MARKUP.search(text)
        if m:
            found.append((t.map[0] + 1 if t.map else 0, text[max(0, m.start() - 40) : m.start() + 160].strip()))
    return found


_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
# HTML blocks that a blank line does not end (CommonMark's kinds 1 to 5), and what ends each.
_RAW_OPEN = (
    (
        re.compile(r"^ {0,3}<(script|pre|style|textarea)(\s|>|$)", re.I),
        re.compile(r"</(script|pre|style|textarea)>", re.I),
    ),
    (re.compile(r"^ {0,3}<!--"), re.compile(r"-->")),
    (re.compile(r"^ {0,3}<\?"), re.compile(r"\?>")),
    (re.compile(r"^ {0,3}<![A-Za-z]"), re.compile(r">")),
    (re.compile(r"^ {0,3}<!\[CDATA\["), re.compile(r"\]\]>")),
)


_OPENERS = frozenset("#`~<")


def part_starts(lines: list[str]) -> list[int]:
    """The 0-based lines of ``lines`` where a level-1 heading (``# ``, at the margin, after a
    blank line or at the start) opens a block no earlier block can hold: outside every fence
    and every HTML block a blank line does not end. CommonMark parses the text from such a line
    on as it parses it alone (a list or quote ends at an unindented line that is not a
    paragraph's continuation, which a heading after a blank line is not)."""
    starts: list[int] = []
    fence: tuple[str, re.Pattern[str]] | None = None  # the open fence's character, what closes it
    raw = None
    for i, line in enumerate(lines):
        # Every line this loop acts on starts, after at most 3 spaces, with one of these
        # characters (or ends a raw block); the others are skipped unparsed: llms-full.txt has
        # tens of thousands of lines, guarded on every save.
        lead = line[:4].lstrip(" ")[:1]
        if fence is not None:
            if lead == fence[0] and fence[1].match(line):
                fence = None
            continue
        if raw is not None:
            if raw.search(line):
                raw = None
            continue
        if lead not in _OPENERS:
            continue
        if line.startswith("# ") and (i == 0 or not lines[i - 1].strip()):
            starts.append(i)
        m = _FENCE_OPEN.match(line)
        if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
            char = m.group(1)[0]
            fence = (char, re.compile(rf"^ {{0,3}}{re.escape(char)}{{{len(m.group(1))},}}\s*$"))
            continue
        for opens, closes in _RAW_OPEN:
            if (opened := opens.match(line)) is not None:
                raw = None if closes.search(line, opened.end()) else closes
                break
    return starts


def code_blocks_in_parts(text: str) -> list[tuple[int, str]]:
    """:func:`_code` of ``text`` (``llms-full.txt``: every twin, one after the other), parsed part
    by part, each part from one :func:`part_starts` line to the next, each parse memoised
    (:func:`~verified_docs.site.markdown_blocks.block_tokens`): the author loop guards the site
    on every save, and only the twins that changed are parsed again. The same blocks, at the
    same lines, as a parse of the whole text (``tests/test_incremental.py`` compares them)."""
    lines = text.split("\n")
    bounds = [0, *[i for i in part_starts(lines) if i], len(lines)]
    out = []
    for start, end in zip(bounds, bounds[1:], strict=False):
        part = "\n".join(lines[start:end]) + ("\n" if end < len(lines) else "")
        out += [(line + start if line else 0, code) for line, code in _code(block_tokens(part))]
    return out


@lru_cache(maxsize=128)
def _twin_facts(text: str) -> tuple[tuple[tuple[int, str], ...], tuple[str, ...], tuple[tuple[int, str], ...]]:
    """What the checks read of a twin's text: its code blocks (line, text), their fingerprints,
    and the render stage's markup left in it. Memoised by the text, as the parse is: the author
    loop guards every twin on every save."""
    tokens = block_tokens(text)
    blocks = tuple(_code(tokens))
    return blocks, tuple(fingerprint(code) for _, code in blocks), tuple(_markup_left(tokens))


@lru_cache(maxsize=256)
def _page_fingerprints(html_text: str) -> tuple[str, ...]:
    return tuple(fingerprint(text) for text in parse_page(html_text).blocks)


@lru_cache(maxsize=4)
def _full_blocks(text: str) -> tuple[tuple[int, str, str], ...]:
    """:func:`code_blocks_in_parts` of ``llms-full.txt``, each block with its fingerprint."""
    return tuple((at, code, fingerprint(code)) for at, code in code_blocks_in_parts(text))


def read_ahead(twins: Iterable[str], full: str) -> None:
    """Parse the texts of twins and of ``llms-full.txt`` about to be written, as the guard will
    read them, so its later read of the same texts is answered from the memo. For the author
    loop, which runs this while the generator builds in another process."""
    for text in twins:
        _twin_facts(text)
    _full_blocks(full)


def twin_file(html_page: Path) -> Path:
    """The twin beside a built HTML page: its path plus ``.md``."""
    return html_page.with_name(html_page.name + TWIN_SUFFIX)


def _twin_problems(
    twin: Path, page: Path, site: Path, allowed: set[str], unexecuted: dict
) -> tuple[list[Problem], list[str]]:
    """The problems of one twin, and the fingerprints of its code blocks, in order."""
    rel = twin.relative_to(site).as_posix()
    blocks, ours, markup = _twin_facts(twin.read_text(encoding="utf-8"))
    problems = []
    for index, ((line, text), fp) in enumerate(zip(blocks, ours, strict=True), start=1):
        if fp in allowed:
            continue
        why = (
            "a Python fence that was not executed in this run"
            if fp in unexecuted
            else "not a verified program, section, output or diagram, nor a fence that ran in this build"
        )
        first = tuple(f"| {x}" for x in text.strip("\n").splitlines()[:3])
        problems.append(Problem(Location(twin, line), f"code block #{index} of the twin {rel}: {why}", first))
    pages = _page_fingerprints(read_html(page))
    if ours != pages:
        at = next((i for i, (a, b) in enumerate(zip(ours, pages, strict=False)) if a != b), min(len(ours), len(pages)))
        problems.append(
            Problem(
                Location(twin, blocks[at][0] if at < len(blocks) else 0),
                f"the twin {rel} holds {len(ours)} code blocks and its page {page.relative_to(site).as_posix()} "
                f"{len(pages)}; they differ from block #{at + 1} on (the twin must show the page's programs "
                "whole and its outputs, in the page's order)",
            )
        )
    for line, left in markup:
        problems.append(
            Problem(
                Location(twin, line),
                f"the twin {rel} holds the render stage's markup (a directive or claim comment left "
                "unrendered, or a marker the twin writer did not remove)",
                (left,),
            )
        )
    return problems, list(ours)


def twin_problems(site: Path, docs: Path, verified: set[str], executed: set[tuple[str, int]]) -> list[Problem]:
    """Problems of the twins of every page of ``docs`` built into ``site``, and of ``llms.txt``
    and ``llms-full.txt`` (see the module docstring). ``verified`` and ``executed`` are what
    :func:`~verified_docs.site.guard.check_site` takes. A page that was not built is the
    directive check's to report."""
    site, docs = Path(site), Path(docs)
    allowed, unexecuted = allowed_blocks(docs, verified, executed)
    problems: list[Problem] = []
    twins: dict[Path, list[str]] = {}  # twin -> its code blocks' fingerprints
    for md in sorted(docs.rglob("*.md")):
        page = built_page(site, docs, md)
        if page is None:
            continue
        twin = twin_file(page)
        if not twin.is_file():
            problems.append(
                Problem(
                    Location(md),
                    f"no Markdown twin {twin.relative_to(site).as_posix()} beside {page.relative_to(site).as_posix()} "
                    "(the build writes it after the generator: verified_docs.site.llms_txt)",
                )
            )
            continue
        found, twins[twin] = _twin_problems(twin, page, site, allowed, unexecuted)
        problems += found
    return problems + _index_problems(site, twins, allowed)


def _index_problems(site: Path, twins: dict[Path, list[str]], allowed: set[str]) -> list[Problem]:
    index, full = site / LLMS_TXT, site / LLMS_FULL
    missing = [Problem(Location(p), f"no {p.name} in the built site") for p in (index, full) if not p.is_file()]
    if missing:
        return missing
    problems = []
    lines = index.read_text(encoding="utf-8").splitlines()
    if not lines or not lines[0].startswith("# "):
        problems.append(Problem(Location(index, 1), f"{LLMS_TXT} must start with an H1, the site's name"))
    listed: list[Path] = []
    for number, line in enumerate(lines, start=1):
        m = _LIST_LINK.match(line)
        if not m:
            continue
        target = site / posixpath.normpath(m.group(1).split("#")[0])
        if not target.is_file():
            problems.append(Problem(Location(index, number), f"{LLMS_TXT} links {m.group(1)}, which the site lacks"))
        listed.append(target)
    for twin in twins:
        if listed.count(twin) != 1:
            problems.append(
                Problem(
                    Location(index),
                    f"{LLMS_TXT} lists {twin.relative_to(site).as_posix()} {listed.count(twin)} times, not once",
                )
            )
    expected = [fp for twin in listed for fp in twins.get(twin, ())]
    blocks = _full_blocks(full.read_text(encoding="utf-8"))
    unverified = [(at, code) for at, code, fp in blocks if fp not in allowed]
    for at, code in unverified[:1]:
        problems.append(
            Problem(Location(full, at), f"a code block of {LLMS_FULL} did not run in this build", (code[:200],))
        )
    if [fp for _, _, fp in blocks] != expected:
        problems.append(
            Problem(
                Location(full),
                f"{LLMS_FULL}'s {len(blocks)} code blocks are not the twins' {len(expected)}, in {LLMS_TXT}'s order",
            )
        )
    return problems
