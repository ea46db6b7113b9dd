"""Factual sentences without a claim: every sentence of a page that likely says what toolnexus
does, did or prints must carry a claim (:mod:`~verified_docs.render.claims`) or be marked as
advice. ``markdown`` of a page in, a :class:`PageReport` (its unmarked sentences, each at its
``page.md:line``) out; :func:`problems` turns the reports into the build's problems.

**The advice mark** is an HTML comment right after the sentence, on its line::

    Give the tool a deterministic id, so that a resumed run matches it.<!-- advice -->

and ``<!-- navigation -->`` marks a sentence that only leads the reader somewhere ("click
`Answer` in a program to reach its entry"). Both say: this sentence states nothing about
toolnexus.

The author sees it in the page's source; the render stage removes it (:func:`strip_advice`,
line numbers kept), so a reader sees the sentence as written. In a code span or a fence it is
text, not a mark.

**The heuristic.** A page is cut into paragraphs as :mod:`~verified_docs.render.claim_parse`
cuts it (fences, blank lines and block starts end one; claim comments are left out of its
text), and each paragraph into sentences by
:func:`~verified_docs.render.claim_record.sentence_spans`, the splitter claimed sentences are
recorded with. A sentence is *likely factual* when all of these hold:

- it names a toolnexus API in a code span: an identifier in the span (two characters or more)
  is a public name of the installed toolnexus as griffe reads it statically
  (:func:`~verified_docs.render.api_reference.load_package`, the loader of the API reference):
  a module, class, function, method, field, attribute or a function's parameter
  (:func:`api_names`), outside a quoted value (``"input"`` is data). In a dotted name only a toolnexus head counts (``ctx.answer`` does,
  ``time.sleep`` does not; a leading ``toolnexus.`` is skipped). A span that is a shell command
  (``nox ...``, ``pip ...``), a path or file name (``rules/releases.txt``, ``host.py``,
  ``file:line``), a comment or marker (``# not run``, ``--8<--``, escaped ``;--8<--``) or a quoted message of five
  words or more names none;
- it is not a heading, an admonition's or a tab's title line, a table's header or separator
  row or the first cell of a table row (the row's label), nor a label of fewer than four words
  (a table cell such as ``` `wait_for` ```);
- it is not a question (it ends with ``?``), nor starts with a link (a list of links is
  navigation);
- it is not imperative: its first word, after a list marker, emphasis, an opening clause
  ended by a comma (``If the tool suspends, ...``, ``In production, ...``) and a linking word
  (``So``, ``Then``), is not one of
  :data:`IMPERATIVE` (``Use``, ``Give``, ``Keep``, ``See``, ``Don't``, ...). Navigation
  ("See [Answer later](...)") is imperative too.

A likely-factual sentence is *claimed* when a claim of its paragraph records it (the claim's
sentence, :func:`~verified_docs.render.claim_record.sentence_bounds`, overlaps it), *advice*
when an advice mark follows it within the sentence, and *unmarked* otherwise: a problem.

Known misses, both ways: a factual sentence that names toolnexus only in words ("the client
runs the tool again") or through a snippet's own names (``deploy``) is not flagged; a
factual sentence that starts with a verb of :data:`IMPERATIVE` ("Returns ...") passes as
advice; a sentence that names a generic word that happens to be a toolnexus name (``data``,
``id``, ``text``) in a span about something else is flagged, and wants an advice mark or a
rewording; a sentence that cites toolnexus only by a path (``toolnexus/client.py``) or in a
quoted message is not flagged; a sentence the splitter cuts too early (after an abbreviation other than "e.g." and
"i.e.") is judged in parts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from verified_docs.errors import Location, Problem
from verified_docs.render.claim_parse import OPENING, Claim, masked_lines, parse_claims
from verified_docs.render.claim_record import sentence_bounds, sentence_spans, words
from verified_docs.render.claim_why import source_only
from verified_docs.render.directive import fenced_lines

ADVICE = "<!-- advice -->"
NAVIGATION = "<!-- navigation -->"
_ADVICE = re.compile(r"<!--\s*(?:advice|navigation)\s*-->")
# The paragraph rule of claim_parse (a line that opens a block ends the paragraph before it).
_BLOCK_START = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|#{1,6}\s|\||!!!|\?\?\?|===|<!--)")
_TITLE_LINE = re.compile(r"^\s*(?:#{1,6}\s|!!!|\?\?\?|===)")
_SEPARATOR_ROW = re.compile(r"^[\s|:-]*$")
_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.S)
# A quoted value (``"input"``, ``'expired'``) is data, not a name.
_STRING = re.compile(r"\"[^\"]*\"|'[^']*'")
_DOTTED = re.compile(r"(?<![\w.-])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*(?![\w-])")
# A path (``rules/spec-10.yaml``), a file name (``host.py``) or the placeholder ``file:line``.
_PATH_LIKE = re.compile(r"/|\.(?:py|md|ya?ml|json|txt|out|toml|js|css|html|xml)\b|^file:line$|^\s*(?:#|;*--)|:$")
_COMMAND = re.compile(r"^\s*(?:nox|python3?|pip|uv|git|go|mvn|npm|mkdocs|zensical|pytest|curl|cd|export)\s")
_LEAD = re.compile(r"^[\s|]*(?:[-*+]\s+|\d+[.)]\s+)?[*_\s]*")
_OPENING_CLAUSE = re.compile(
    r"^(?:If|When|Whenever|Once|Before|After|Until|Unless|While|To|For|In|On|At|With|Without|Where|"
    r"Otherwise|Here|Below|Above|Either way|In short|In production)\b[^,;:]*,\s*",
    re.I,
)
# A linking word before the verb: "So answer ...", "Then give ...".
_LINKING = re.compile(r"^(?:So|Then|Instead|Also|And|But|Or|Otherwise)\s+")
_NOT_CODE_NAMES = frozenset({"toolnexus"})
MIN_WORDS = 4

#: First words that make a sentence imperative (advice, or navigation), not a statement.
IMPERATIVE = frozenset(
    """
    add answer ask avoid build call catch check choose compare copy declare define delete do don't
    drop ensure expect find follow give go handle keep let look make mark model move name never
    note open pass persist pick point prefer put raise read record remember replace resume return
    rewind run save see send set show start stop store swap take tell test treat try turn use
    verify wait write always apply wrap log alert hand limit leave count include retry consider
    reach click unfold fold skip mind suspend switch park decline decide
    """.split()
)


@dataclass(frozen=True)
class Unclaimed:
    """A likely-factual sentence with neither a claim nor an advice mark: ``where`` its first
    line, ``sentence`` its words as a reader sees them, ``names`` the toolnexus names it cites."""

    where: Location
    sentence: str
    names: tuple[str, ...]


@dataclass(frozen=True)
class PageReport:
    """One page (``page``, posix below ``docs/``): how many sentences are likely factual, how
    many of them are claimed or marked as advice, and the ones that are neither; and how many
    claimed sentences rest on source alone (``source_only``, :mod:`~verified_docs.render.claim_why`),
    ``without_why`` of them with a ``source:`` claim that does not say why no run can show it."""

    page: str
    factual: int
    claimed: int
    advice: int
    unclaimed: tuple[Unclaimed, ...]
    source_only: int = 0
    without_why: int = 0


@lru_cache(maxsize=256)
def strip_advice(markdown: str) -> str:
    """``markdown`` without its advice marks outside code (each line keeps its place).
    Memoised by the text: the render stage reads every page's claims on each author-loop save."""
    return _stripped(markdown)[0]


def _stripped(markdown: str) -> tuple[str, dict[int, list[int]]]:
    """``markdown`` without its advice marks outside code, and the columns where they stood in
    each stripped line (page line -> columns)."""
    if "advice" not in markdown and "navigation" not in markdown:
        return markdown, {}
    lines, marks = markdown.splitlines(), {}
    for i, (line, masked, fenced) in enumerate(zip(lines, masked_lines(markdown), fenced_lines(markdown), strict=True)):
        if fenced:
            continue
        found = list(_ADVICE.finditer(masked))
        if found:
            columns, cut = [], 0
            for m in found:
                columns.append(m.start() - cut)
                cut += m.end() - m.start()
            for m in reversed(found):
                line = line[: m.start()] + line[m.end() :]
            lines[i] = line.rstrip() if line.strip() else line
            marks[i + 1] = columns
    return "\n".join(lines) + ("\n" if markdown.endswith("\n") else ""), marks


@lru_cache(maxsize=4)
def api_names(search_path: Path) -> frozenset[str]:
    """Every public name of the toolnexus under ``search_path`` (a site-packages folder), read
    statically by griffe: modules, classes, functions, methods, fields and module attributes
    (not those imported from elsewhere), and the parameters of its functions and methods. One
    character names are left out."""
    from verified_docs.render.api_reference import load_package

    names: set[str] = set()

    def walk(obj: object) -> None:
        for name, member in getattr(obj, "members", {}).items():
            if name.startswith("_") or member.is_alias:
                continue  # an alias is walked where it is defined, or is not toolnexus's
            names.add(name)
            if member.is_module or member.is_class:
                walk(member)
            elif member.is_function:
                names.update(p.name for p in member.parameters if p.name not in ("self", "cls"))

    walk(load_package(Path(search_path)))
    return frozenset(n for n in names if len(n) > 1)


@dataclass
class _Paragraph:
    text: str
    starts: list[tuple[int, int]]  # (offset in text, page line) of each line's start
    claims: list[tuple[int, int]]  # sentence bounds of the paragraph's claims
    advice: list[int]  # offsets of the advice marks
    labels: int = 0  # where a table row's statement starts: its first cell (or all of a header row) are labels


def _labels(lines: list[str], number: int) -> int:
    """Where the statement of the paragraph starting on line ``number`` may start: after a
    table row's first cell, nowhere in a table's header row (the line above a separator), at
    0 in any other paragraph."""
    line = lines[number - 1]
    if not line.lstrip().startswith("|"):
        return 0
    following = lines[number] if number < len(lines) else ""
    if _SEPARATOR_ROW.match(following) and "-" in following:
        return len(line)
    second = line.find("|", line.index("|") + 1)
    return second if second >= 0 else 0


def _claimed(claim: Claim, so_far: str) -> tuple[int, int]:
    """The offsets, in the paragraph being read (``so_far`` its text up to the claim), of the
    sentence ``claim`` records; only the claim's own place when its paragraph is another."""
    # claim_parse's paragraph text starts with the blank line before it.
    lead = len(claim.paragraph) - len(claim.paragraph.lstrip("\n"))
    bounds = sentence_bounds(claim) if claim.paragraph[lead:].startswith(so_far) else None
    if bounds is None:
        bounds = (claim.at[1] - 1, claim.at[1])
    return max(0, bounds[0] - lead), bounds[1] - lead


def _paragraphs(markdown: str, marks: dict[int, list[int]], claims: list[Claim]) -> list[_Paragraph]:
    """The paragraphs of ``markdown`` (advice marks already out, their columns in ``marks``)
    outside fences, their text as :mod:`~verified_docs.render.claim_parse` makes it (claim
    comments left out), with where each of ``claims`` (the page's) records its sentence and
    where each advice mark stood."""
    at = {(c.where.line, c.span[0]): c for c in claims}
    out: list[_Paragraph] = []
    current: _Paragraph | None = None
    skip_to = 0
    lines = markdown.splitlines()
    rows = zip(lines, masked_lines(markdown), fenced_lines(markdown), strict=True)
    for number, (line, masked, fenced) in enumerate(rows, start=1):
        if number <= skip_to:
            continue
        if fenced or not line.strip() or _BLOCK_START.match(line):
            current = None
        if fenced or not line.strip():
            continue
        if current is None:
            current = _Paragraph("", [], [], [], _labels(lines, number))
            out.append(current)
        current.starts.append((len(current.text), number))
        cuts: list[tuple[int, int, Claim | None]] = [(c, c, None) for c in marks.get(number, ())]
        for m in OPENING.finditer(masked):
            end = masked.find("-->", m.end())
            cuts.append((m.start(), end + 3 if end >= 0 else len(line), at.get((number, m.start()))))
        pos = 0
        for start, end, claim in sorted(cuts, key=lambda c: c[0]):
            if start < pos:
                continue
            current.text += line[pos:start]
            if start == end:
                current.advice.append(len(current.text))
            elif claim is not None:
                current.claims.append(_claimed(claim, current.text))
                skip_to = max(skip_to, number + claim.lines - 1)
            pos = end
        current.text += line[pos:] + "\n"
    return out


def _line_of(p: _Paragraph, offset: int) -> int:
    line = p.starts[0][1]
    for start, number in p.starts:
        if start <= offset:
            line = number
    return line


def cited_names(text: str, names: frozenset[str]) -> tuple[str, ...]:
    """The toolnexus names (of ``names``) that the code spans of ``text`` hold, in order, once
    each: in a span that is not a command, a path or file name, or a quoted message (five words
    or more), outside quoted values (``"input"`` is data), each dotted name whose head is a toolnexus name (``ctx.answer``, ``data.schema``;
    ``toolnexus.`` itself left off) gives its parts that are; one whose head is not
    (``time.sleep``, ``json.dumps``) gives none."""
    found: dict[str, None] = {}
    for m in _CODE_SPAN.finditer(text):
        span = m.group(2)
        if _COMMAND.match(span) or _PATH_LIKE.search(span) or len(span.split()) >= 5:
            continue
        for chain in _DOTTED.findall(_STRING.sub(" ", span)):
            parts = chain.split(".")
            if parts[0] in _NOT_CODE_NAMES:
                parts = parts[1:]
            if parts and parts[0] in names:
                for part in parts:
                    if part in names:
                        found.setdefault(part, None)
    return tuple(found)


def is_statement(text: str) -> bool:
    """Whether the sentence ``text`` (as written) states something: not a heading, title line,
    table separator, label, question or imperative (see the module docstring)."""
    if _TITLE_LINE.match(text) or _SEPARATOR_ROW.match(text.strip("| \n")) and "|" in text:
        return False
    seen = words(text).strip("| ")
    if len(seen.split()) < MIN_WORDS or seen.rstrip(" )\"'*_").endswith("?"):
        return False
    if _LEAD.sub("", text, count=1).startswith("["):
        return False  # a list of links, or a sentence that starts with one: navigation
    lead = _LEAD.sub("", words(text), count=1)
    lead = _OPENING_CLAUSE.sub("", _LINKING.sub("", lead, count=1), count=1)
    lead = _LINKING.sub("", lead, count=1)
    first = re.split(r"[\s,:;.]", lead.strip(), maxsplit=1)[0].lower().strip("*_\"'(")
    if first == "do" and re.match(r"(?i)do\s+not\b", lead):
        return False
    return first not in IMPERATIVE


def check_page(markdown: str, page: Path, src_uri: str, names: frozenset[str], first_line: int = 1) -> PageReport:
    """The report on ``markdown`` (the page ``page``, ``src_uri`` posix below ``docs``, as
    written: advice marks and claims in place; its first line is the file's line
    ``first_line``), judged with the toolnexus ``names`` (:func:`api_names`). Raises :class:`~verified_docs.errors.SourceError` for a malformed claim,
    as the claims' own check does."""
    stripped, marks = _stripped(markdown)
    factual = claimed = advice = 0
    unclaimed: list[Unclaimed] = []
    claims = parse_claims(stripped, page)
    alone = source_only(claims)
    for p in _paragraphs(stripped, marks, claims):
        for start, end in sentence_spans(p.text):
            if start < p.labels:
                continue  # a table's header row, or a row's first cell: labels
            text = p.text[start:end]
            cited = cited_names(text, names)
            if not cited or not is_statement(text):
                continue
            factual += 1
            if any(s < end and e > start for s, e in p.claims):
                claimed += 1
            elif any(start < a <= end for a in p.advice):
                advice += 1
            else:
                first = start + len(text) - len(text.lstrip())
                unclaimed.append(
                    Unclaimed(Location(page, _line_of(p, first) + first_line - 1), words(text).strip("| "), cited)
                )
    return PageReport(
        src_uri, factual, claimed, advice, tuple(unclaimed), len(alone), sum(1 for s in alone if s.without_why)
    )


def problems(reports: Iterable[PageReport]) -> list[Problem]:
    """A problem per unmarked sentence, at its ``page.md:line``, naming both fixes."""
    out = []
    for r in reports:
        for u in r.unclaimed:
            shown = u.sentence if len(u.sentence) <= 160 else u.sentence[:159] + "…"
            out.append(
                Problem(
                    u.where,
                    f"sentence names toolnexus ({', '.join(u.names[:4])}) but carries no claim",
                    (
                        f'sentence: "{shown}"',
                        'if it says what toolnexus does, add a claim after it: <!-- claim evidence="<scenario>#<run>.<key>" '
                        'value="..." quote="<its words>" --> (CONTRIBUTING.md, Claims)',
                        f"if it is advice, mark it: put {ADVICE} right after the sentence "
                        f"({NAVIGATION} if it only leads the reader to another place)",
                    ),
                    "unclaimed sentence",
                )
            )
    return out


def report_lines(reports: Iterable[PageReport], pending: Iterable[str] = ()) -> list[str]:
    """The per-page report the build prints: one line per page with likely-factual sentences
    (``NOT DONE`` on a page of ``pending``, the pages :data:`PENDING_FILE` lists), and a total;
    then one line per page with sentences resting on source alone, and their total."""
    reports, pending = list(reports), set(pending)
    lines = [
        f"factual: {r.page}: {len(r.unclaimed)} unmarked of {r.factual} likely-factual sentence(s) "
        f"({r.claimed} claimed, {r.advice} marked as advice or navigation)"
        + ("  NOT DONE: listed in " + PENDING_FILE.as_posix() if r.page in pending else "")
        for r in reports
        if r.factual
    ]
    bad = sum(1 for r in reports if r.unclaimed)
    total = sum(len(r.unclaimed) for r in reports)
    lines.append(f"factual: {total} unmarked sentence(s) on {bad} of {len(reports)} page(s)")
    # The sentences a run does not back: each says why no run can show what it says.
    lines += [
        f"source-only: {r.page}: {r.source_only} sentence(s) rest on source alone"
        + (f", {r.without_why} not saying why no run can show it" if r.without_why else "")
        for r in reports
        if r.source_only
    ]
    alone = [r for r in reports if r.source_only]
    lines.append(
        f"source-only: {sum(r.source_only for r in alone)} sentence(s) on {len(alone)} of {len(reports)} page(s), "
        f"{sum(r.without_why for r in reports)} not saying why"
    )
    return lines


PENDING_FILE = Path("rules") / "factual-pending.txt"


def load_pending(root: Path) -> dict[str, tuple[int, int]]:
    """The pages not yet brought to 0 unmarked sentences, from ``rules/factual-pending.txt``
    (written by hand: ``<page> <count>`` per line, ``#`` comments): page -> (the most unmarked
    sentences it may have, the file's line). No file: no page is pending. Raises
    :class:`~verified_docs.errors.SourceError` at the line that is not ``<page> <count>``."""
    from verified_docs.errors import SourceError

    path = Path(root) / PENDING_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    out: dict[str, tuple[int, int]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        body = line.split("#", 1)[0].split()
        if not body:
            continue
        if len(body) != 2 or not body[1].isdigit() or body[0] in out:
            raise SourceError.at(
                path, number, f"expected '<page below docs/> <count>' once per page, got {line.strip()!r}"
            )
        out[body[0]] = (int(body[1]), number)
    return out


def page_problems(report: PageReport, pending: dict[str, tuple[int, int]], root: Path) -> list[Problem]:
    """The problems of one page's ``report``: each unmarked sentence, unless the page is in
    ``pending`` (:func:`load_pending`) and has no more than its count there; then, a pending
    page with fewer (or none) asks for its line to be lowered (or removed)."""
    if report.page not in pending:
        return problems([report])
    allowed, line = pending[report.page]
    where = Location(Path(root) / PENDING_FILE, line)
    now = len(report.unclaimed)
    if now > allowed:
        return [
            Problem(
                where,
                f"{report.page} has {now} unmarked sentence(s), more than the {allowed} this list allows",
                ("the new ones are below: claim them or mark them as advice",),
                "unclaimed sentence",
            )
        ] + problems([report])
    if now == 0:
        return [Problem(where, f"{report.page} has no unmarked sentence any more", ("remove its line",))]
    if now < allowed:
        return [
            Problem(
                where,
                f"{report.page} has {now} unmarked sentence(s), fewer than {allowed}",
                (f"lower its count to {now}",),
            )
        ]
    return []
