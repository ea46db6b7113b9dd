"""Claims: a sentence about what toolnexus does, tied to a piece of evidence checked in the same
build. Parse -> check -> render, plain ``str -> str``; only :mod:`verified_docs.site.mkdocs_hook` knows MkDocs.

A claim is an HTML comment right after the sentence it backs, on the same line::

    ... only `call_1` has a tool message: the saved transcript is unbalanced.<!-- claim
    evidence="suspension/several-suspensions#halt.transcript_balanced" value="false" quote="unbalanced" -->

(one line in the page; wrapped here). ``evidence`` is one of:

- ``<scenario>#<run>.<key>`` (``<key>.<sub>`` for an entry of a dict or list), a key of the run's
  ``expect`` in ``scenario.yaml``; with ``value="..."``, a YAML value that must equal the
  stated evidence (read by the YAML loader scenarios are read with), or ``contains="..."``, a
  text that an item of a list (or a text) must hold. The run must have passed in this build.
- ``matrix:<scenario>`` with ``since="X.Y.Z"``: the release matrix's measured first release.
- ``source:toolnexus/<file>.py`` with ``contains="..."``: a text the installed toolnexus file
  must hold (the package this build runs, found through importlib, never imported).

``quote`` is required: words of the sentence that the evidence backs, which must stand in the
same paragraph before the claim (after the previous claim, if any; claims written one right
after the other share their sentence). Editing the sentence to say
something else loses the words; editing the claim to say something else loses the evidence:
either fails the build at ``page.md:line``. Values may be quoted with ``'...'`` to hold ``"``.

A checked claim becomes a small superscript link: to the run's part of the scenario's evidence
box (on the same page when it has one), to the scenario's row of the release matrix, or to the
entry of the list of cited source lines (``<!-- verified-sources -->``, :func:`render_sources`),
which shows ``file:line`` and the line as installed. Claims in code fences and inline code are
text, not claims.
"""

from __future__ import annotations

import importlib.util
import json
import posixpath
import re
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path
from typing import Any

from verified_docs.errors import Location, Problem, SourceError
from verified_docs.ledger import CHANGED, DID_NOT_PASS, NOT_VERIFIED, SCENARIO_CHANGED, Ledger
from verified_docs.render.anchors import evidence_anchor, matrix_anchor, source_anchor
from verified_docs.render.directive import Directive, fenced_lines, find_directives, marker
from verified_docs.render.release_matrix import Matrix
from verified_docs.render.templating import code
from verified_docs.scenario.load import find_scenario
from verified_docs.scenario.records import Expect, Run, Scenario

OPENING = re.compile(r"<!--\s*claim\b")
_ATTR = re.compile(r"""\s+(?P<key>[a-z_]+)=(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)')""")
ATTRIBUTES = ("evidence", "value", "contains", "since", "quote")
# What each kind of evidence takes besides evidence and quote: (exactly one of these, allowed).
_KIND_ATTRIBUTES = {"scenario": ("value", "contains"), "matrix": ("since",), "source": ("contains",)}
EVIDENCE_KEYS = tuple(f.name for f in fields(Expect) if f.name not in ("where", "lines"))
_SOURCE_FILE = re.compile(r"toolnexus(/[A-Za-z_][A-Za-z0-9_]*)+\.py")
# A line that opens a block (list item, heading, table row, admonition, tab, directive) ends
# the paragraph before it, so a claim's words are looked for in its own item or row.
_BLOCK_START = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|#{1,6}\s|\||!!!|\?\?\?|===|<!--)")
CHECK_MARK = "✓"


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


@dataclass(frozen=True)
class Site:
    """Where a claim can point, found in ``docs/``: the pages (posix, below ``docs/``) showing
    each scenario's evidence box, the page with the release matrix, the page listing cited
    source lines, and every source claim of every page (for that list)."""

    evidence_pages: dict[str, tuple[str, ...]]
    matrix_page: str | None
    sources_page: str | None
    source_claims: tuple[tuple[str, Claim], ...]


@dataclass(frozen=True)
class Context:
    """What claims are checked against in one build: the scenarios, the ledger of what passed,
    the project ``root``, the release matrix (None when never measured), the :class:`Site`, and
    the installed toolnexus ``package`` folder and its ``toolnexus`` version."""

    scenarios: dict[str, Scenario]
    ledger: Ledger
    root: Path
    matrix: Matrix | None
    site: Site
    package: Path
    toolnexus: str


@dataclass(frozen=True)
class Checked:
    """A claim whose evidence held, and its link: ``target`` (a relative Markdown link), the
    visible ``text``, the ``title`` (tooltip) and the accessible ``label``."""

    claim: Claim
    target: str
    text: str
    title: str
    label: str


@dataclass(frozen=True)
class SourceLine:
    """A cited text of the installed toolnexus: ``file`` (``toolnexus/client.py``), the
    1-based ``lines`` holding ``contains``, the first such line's ``text``, its ``anchor`` and
    the ``pages`` citing it."""

    file: str
    contains: str
    lines: tuple[int, ...]
    text: str
    anchor: str
    pages: tuple[str, ...]


def installed_toolnexus() -> tuple[Path, str]:
    """The folder and version of the toolnexus this interpreter would import (not imported).
    Raises :class:`FileNotFoundError` when it is not installed."""
    spec = importlib.util.find_spec("toolnexus")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("toolnexus is not installed in this environment; source claims cannot be checked")
    return Path(list(spec.submodule_search_locations)[0]), version("toolnexus")


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
        for i, masked in zip(group, "".join(chars).split("\n")):
            out[i] = masked
        group.clear()

    for i, (line, fenced) in enumerate(zip(lines, fenced_lines(markdown))):
        if fenced or not line.strip() or _BLOCK_START.match(line):
            flush()
        if not fenced and line.strip():
            group.append(i)
    flush()
    return out


def _attributes(rest: str) -> tuple[dict[str, str], str | None]:
    """The attributes of a claim's text after ``claim``, or the reason they cannot be read."""
    attrs: dict[str, str] = {}
    pos, rest = 0, rest.rstrip()
    while pos < len(rest):
        a = _ATTR.match(rest, pos)
        if a is None:
            return attrs, f'cannot read its attributes from {rest[pos:].strip()!r} (they look like name="value")'
        key = a.group("key")
        if key not in ATTRIBUTES:
            return attrs, f"unknown attribute '{key}'"
        if key in attrs:
            return attrs, f"attribute '{key}' is given twice"
        attrs[key] = a.group("dq") if a.group("dq") is not None else a.group("sq")
        pos = a.end()
    return attrs, None


def _claim(where: Location, span: tuple[int, int], rest: str, sentence: str) -> Claim | Problem:
    attrs, why = _attributes(rest)
    if why is not None:
        details = (f"valid attributes: {', '.join(ATTRIBUTES)}",) if why.startswith("unknown") else ()
        return Problem(where, f"malformed claim: {why}", details)
    for key, what in (("evidence", "what backs the sentence"), ("quote", "the words of the sentence it backs")):
        if not attrs.get(key):
            return Problem(where, f'malformed claim: it has no {key}="..." ({what})')
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
        return Problem(
            where,
            f"malformed claim: evidence {claim.evidence!r} is none of <scenario>#<run>.<key>, "
            "matrix:<scenario>, source:toolnexus/<file>.py",
        )
    if claim.kind == "source" and (not _SOURCE_FILE.fullmatch(claim.evidence[len("source:") :])):
        return Problem(
            where,
            f"malformed claim: {claim.evidence!r} names no file of the package (expected source:toolnexus/<file>.py)",
        )
    takes = _KIND_ATTRIBUTES[claim.kind]
    given = [k for k in ("value", "contains", "since") if k in attrs]
    if len([k for k in given if k in takes]) != 1 or set(given) - set(takes):
        return Problem(
            where, f"malformed claim: a {claim.kind} claim takes {' or '.join(takes)}, got {', '.join(given) or 'none'}"
        )
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
    for number, (line, fenced) in enumerate(zip(markdown.splitlines(), fenced_lines(markdown)), start=1):
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
            found = _claim(where, (m.start(), end + 3), line[m.end() : end], sentence)
            (problems if isinstance(found, Problem) else claims).append(found)
            paragraph, pos, previous = [], end + 3, sentence
        paragraph.append(line[pos:])
    if problems:
        raise SourceError(*problems)
    return tuple(claims)


def _words(text: str) -> str:
    """Text as a reader sees it, for finding a quote: no backticks or emphasis marks, one space."""
    return " ".join(re.sub(r"[`*]", "", text).split())


def _tail(text: str, limit: int = 200) -> str:
    """The end of ``text``, cut at a word, so a long paragraph shows the part next to the claim."""
    return text if len(text) <= limit else "…" + text[-limit:].split(" ", 1)[-1]


def _flow(value: Any) -> str:
    """``value`` written the way a claim's ``value`` is (YAML flow style)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, str) and (not value or re.search(r"[:#,\[\]{}\"'\n]|^\s|\s$", value)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _same(a: Any, b: Any) -> bool:
    # JSON text tells true from 1, which == does not.
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@lru_cache(maxsize=1)
def _yaml() -> Any:
    from ruamel.yaml import YAML

    return YAML(typ="rt")


def read_value(text: str) -> Any:
    """``text`` read as scenario.yaml values are (ruamel round-trip, then plain data).
    Raises ``ValueError`` when it is not YAML."""
    return json.loads(_read_json(text))


@lru_cache(maxsize=1024)
def _read_json(text: str) -> str:
    # Round-trip parsing is most of the claims' cost; a value repeated on the pages is read once.
    from ruamel.yaml.error import YAMLError

    try:
        return json.dumps(_yaml().load(text))
    except YAMLError as e:
        raise ValueError(str(e).splitlines()[0]) from None


def _page_link(page: str, target_page: str) -> str:
    """Relative Markdown link from ``page`` to ``target_page`` (both posix, below docs/)."""
    return posixpath.relpath(target_page, posixpath.dirname(page) or ".")


def _link(page: str, target_page: str, anchor: str) -> str:
    """Relative Markdown link from ``page`` to ``anchor`` on ``target_page``."""
    return f"#{anchor}" if target_page == page else f"{_page_link(page, target_page)}#{anchor}"


def _valid(names: list[str] | tuple[str, ...], what: str) -> tuple[str, ...]:
    return (f"valid {what}: {', '.join(names) or '(none)'}",)


def _points_at_nothing(e: SourceError) -> Problem:
    (p,) = e.problems
    return Problem(p.where, f"claim points at nothing: {p.what}", p.details)


def _run_of(scenario: Scenario, rest: str) -> Run | None:
    # Run names may hold dots: take the longest run name that the evidence starts with.
    runs = [r for r in scenario.runs if rest.startswith(r.name + ".")]
    return max(runs, key=lambda r: len(r.name)) if runs else None


def _stated(run: Run, path: str, where: Location) -> tuple[Any, str] | Problem:
    """The evidence at ``path`` (``key`` or ``key.sub...``) of ``run`` as plain data, with the
    YAML file:line that states it."""
    e = run.expect
    keys = [k for k in EVIDENCE_KEYS if k in e.lines or k == "exit_code"]  # exit code: always checked (0)
    head, *subs = path.split(".")
    if head not in keys:
        return Problem(
            where,
            f"claim points at nothing: run '{run.name}' has no evidence key '{path}'",
            _valid(keys, f"keys of run '{run.name}'"),
        )
    value = json.loads(json.dumps(getattr(e, head)))
    walked = head
    for sub in subs:
        if isinstance(value, dict) and sub in value:
            value = value[sub]
        elif isinstance(value, list) and sub.isdigit() and int(sub) < len(value):
            value = value[int(sub)]
        else:
            names = (
                [f"{walked}.{k}" for k in value]
                if isinstance(value, dict)
                else [f"{walked}.{i}" for i in range(len(value))]
                if isinstance(value, list)
                else []
            )
            return Problem(
                where,
                f"claim points at nothing: run '{run.name}' has no evidence key '{path}'",
                _valid(names, f"keys below '{walked}'"),
            )
        walked += f".{sub}"
    return value, str(Location(e.where.path, e.line_of(head)))


def _check_scenario(claim: Claim, page: str, ctx: Context) -> Checked | Problem:
    where = claim.where
    name, _, rest = claim.evidence.partition("#")
    try:
        scenario = find_scenario(ctx.scenarios, name, where)
    except SourceError as e:
        return _points_at_nothing(e)
    run = _run_of(scenario, rest)
    if run is None:
        return Problem(
            where,
            f"claim points at nothing: scenario '{name}' has no run '{rest.split('.')[0]}'",
            _valid([r.name for r in scenario.runs], "runs"),
        )
    path = rest[len(run.name) + 1 :]
    stated = _stated(run, path, where)
    if isinstance(stated, Problem):
        return stated
    value, yaml_at = stated
    for program in run.programs.values():
        rel = program.path.resolve().relative_to(ctx.root.resolve()).as_posix()
        doubt = ctx.ledger.doubt(rel, program.path, run=run.name, scenario_file=scenario.folder / "scenario.yaml")
        if doubt in (NOT_VERIFIED, DID_NOT_PASS):
            return Problem(
                where,
                f"claim: {claim.evidence}: run '{run.name}' ({rel}) did not pass in this build, "
                "so it backs no sentence",
            )
        if doubt == CHANGED:
            return Problem(where, f"claim: {claim.evidence}: {rel} changed after it was verified; verify it again")
        if doubt == SCENARIO_CHANGED:
            return Problem(
                where,
                f"claim: {claim.evidence}: {scenario.name}/scenario.yaml changed after it was "
                "verified, so its evidence was not checked; verify it again",
            )
    head = f"claim: {claim.evidence}:"
    if claim.value is not None:
        try:
            said = read_value(claim.value)
        except ValueError as e:
            return Problem(where, f"{head} its value {claim.value!r} is not YAML: {e}")
        if not _same(said, value):
            return Problem(
                where,
                f"{head} the page says {claim.value}; the evidence checked in this build says {_flow(value)}",
                (f"the page's value read as YAML: {_flow(said)}", f"stated at {yaml_at}"),
            )
        shown = f"{path} is {_flow(value)}"
    else:
        text = claim.contains or ""
        if isinstance(value, str):
            holds = text in value
        elif isinstance(value, list):
            try:
                item = read_value(text)
            except ValueError:
                item = text
            holds = any(_same(x, item) or _same(x, text) or (isinstance(x, str) and text in x) for x in value)
        elif isinstance(value, dict):
            holds = text in value
        else:
            return Problem(
                where, f"{head} contains= needs a list or a text, and this evidence is {_flow(value)}; use value="
            )
        if not holds:
            return Problem(
                where,
                f'{head} the page says it contains "{text}"; the evidence checked in this build is {_flow(value)}',
                (f"stated at {yaml_at}",),
            )
        shown = f"{path} includes {text}"
    target = ctx.site.evidence_pages.get(name, ())
    if not target:
        return Problem(
            where,
            f"claim: {claim.evidence}: no page shows the evidence of {name}",
            (f'add <!-- verified-evidence scenario="{name}" --> to a page',),
        )
    shown_on = page if page in target else target[0]
    return Checked(
        claim,
        _link(page, shown_on, evidence_anchor(name, run.name)),
        CHECK_MARK,
        f"Checked in this build: {name}, run {run.name}: {shown}",
        f"Evidence checked in this build: {name}, run {run.name}, {path}",
    )


def _check_matrix(claim: Claim, page: str, ctx: Context) -> Checked | Problem:
    where, name = claim.where, claim.evidence[len("matrix:") :]
    head = f"claim: {claim.evidence}:"
    try:
        find_scenario(ctx.scenarios, name, where)
    except SourceError as e:
        return _points_at_nothing(e)
    if ctx.matrix is None or name not in ctx.matrix.scenarios:
        return Problem(
            where, f"{head} the release matrix has not measured this scenario", ("run `nox -s release-matrix`",)
        )
    measured = ctx.matrix.measured_since(name)
    if measured != claim.since:
        return Problem(
            where,
            f"{head} the page says since {claim.since}; the release matrix measured "
            f"{measured or 'no release it passes from'}",
            (f"releases measured: {', '.join(ctx.matrix.releases)}",),
        )
    if ctx.site.matrix_page is None:
        return Problem(where, f"{head} no page shows the release matrix", ("add <!-- verified-matrix --> to a page",))
    return Checked(
        claim,
        _link(page, ctx.site.matrix_page, matrix_anchor(name)),
        CHECK_MARK,
        f"Measured by the release matrix: {name} passes on toolnexus {measured} and every later release",
        f"Release matrix: {name} since {measured}",
    )


@lru_cache(maxsize=64)
def _source_text(path: Path) -> tuple[str, ...]:
    return tuple(path.read_text(encoding="utf-8").splitlines())


def locate(file: str, contains: str, ctx: Context) -> tuple[int, ...] | str:
    """1-based lines of the installed ``file`` (``toolnexus/x.py``) holding ``contains``, or
    why there are none."""
    path = ctx.package.parent / file
    if not path.is_file():
        return f"the installed toolnexus {ctx.toolnexus} has no {file} (looked in {ctx.package})"
    lines = tuple(i for i, text in enumerate(_source_text(path), start=1) if contains in text)
    return lines or f"the installed toolnexus {ctx.toolnexus} has no such text in {file}"


def _check_source(claim: Claim, page: str, ctx: Context) -> Checked | Problem:
    where, file = claim.where, claim.evidence[len("source:") :]
    head = f"claim: {claim.evidence}:"
    if ctx.toolnexus != ctx.ledger.toolnexus:
        return Problem(
            where,
            f"{head} the installed toolnexus is {ctx.toolnexus}, but this build verified "
            f"its examples against {ctx.ledger.toolnexus}",
        )
    found = locate(file, claim.contains or "", ctx)
    if isinstance(found, str):
        return Problem(where, f'{head} the page cites "{claim.contains}"; {found}')
    if ctx.site.sources_page is None:
        return Problem(
            where, f"{head} no page lists the cited source lines", ("add <!-- verified-sources --> to a page",)
        )
    line_text = _source_text(ctx.package.parent / file)[found[0] - 1].strip()
    return Checked(
        claim,
        _link(page, ctx.site.sources_page, source_anchor(file, claim.contains or "")),
        f"{Path(file).name}:{found[0]}",
        f"toolnexus {ctx.toolnexus}, {file}:{found[0]}: {line_text}",
        f"Source line {file}:{found[0]} of the installed toolnexus {ctx.toolnexus}, checked in this build",
    )


def check_claim(claim: Claim, page: str, ctx: Context) -> Checked | Problem:
    """The link for ``claim`` on ``page`` (posix, below docs/), or the problem with it: its
    quote is not in its sentence, it points at nothing, or its evidence says otherwise."""
    if _words(claim.quote) not in _words(claim.sentence):
        return Problem(
            claim.where,
            f'claim\'s words "{claim.quote}" are not in its sentence',
            (f'its sentence: "{_tail(_words(claim.sentence))}"',),
        )
    check = {"scenario": _check_scenario, "matrix": _check_matrix, "source": _check_source}[claim.kind]
    return check(claim, page, ctx)


# Characters a Markdown link title or an attr_list value cannot hold as they are (a quote ends
# the title, a brace the attribute list, a parenthesis may end the link), written as character
# references, which both pass through to the HTML attribute unchanged.
_REFERENCES = {c: f"&#{ord(c)};" for c in "&\"'(){}<>\\[]"}


def attribute_text(text: str, limit: int = 300) -> str:
    """``text`` on one line, cut to ``limit`` characters, safe as a link title or attribute value."""
    text = " ".join(text.split())
    text = text if len(text) <= limit else text[: limit - 1] + "…"
    return "".join(_REFERENCES.get(c, c) for c in text)


def render_link(checked: Checked) -> str:
    """The superscript link a checked claim becomes (Markdown, with attr_list for the label)."""
    return (
        f'<sup class="vd-claim">[{checked.text}]({checked.target} "{attribute_text(checked.title)}")'
        f'{{ aria-label="{attribute_text(checked.label)}" }}</sup>'
    )


def render_claims(markdown: str, page: Path, page_uri: str, ctx: Context) -> str:
    """``markdown`` with every claim replaced by its link, on the same line (line numbers do not
    change). Raises :class:`SourceError` listing every malformed or failing claim at its
    ``page:line``."""
    claims = parse_claims(markdown, page)
    if not claims:
        return markdown
    results = [check_claim(c, page_uri, ctx) for c in claims]
    problems = [r for r in results if isinstance(r, Problem)]
    if problems:
        raise SourceError(*problems)
    lines = markdown.splitlines(keepends=True)
    for checked in reversed(results):
        number, (start, end) = checked.claim.where.line, checked.claim.span
        lines[number - 1] = lines[number - 1][:start] + render_link(checked) + lines[number - 1][end:]
    return "".join(lines)


def leftover_claims(rendered: str, page: Path, source: str) -> list[Problem]:
    """A problem for each claim comment still in ``rendered`` (a page's final Markdown) outside
    code, at its line in ``source`` (the page as written) when it is found there."""
    source_lines = source.splitlines()
    problems = []
    for line, masked, fenced in zip(rendered.splitlines(), masked_lines(rendered), fenced_lines(rendered)):
        if fenced or not OPENING.search(masked):
            continue
        number = next((i for i, s in enumerate(source_lines, start=1) if s == line), 0)
        problems.append(
            Problem(Location(Path(page), number), "a claim was left in the page unrendered", (line.strip()[:200],))
        )
    return problems


def scan_site(docs: Path) -> Site:
    """Read every page under ``docs`` for directives and source claims (see :class:`Site`).
    Raises :class:`SourceError` for a malformed directive or claim on any page."""
    evidence: dict[str, list[str]] = {}
    matrix_page = sources_page = None
    sources: list[tuple[str, Claim]] = []
    for path in sorted(Path(docs).rglob("*.md")):
        rel, text = path.relative_to(docs).as_posix(), path.read_text(encoding="utf-8")
        for d in find_directives(text, path):
            if d.kind == "evidence":
                evidence.setdefault(d.scenario, []).append(rel)
            elif d.kind == "matrix":
                matrix_page = matrix_page or rel
            elif d.kind == "sources":
                sources_page = sources_page or rel
        if "claim" in text:
            sources += [(rel, c) for c in parse_claims(text, path) if c.kind == "source"]
    return Site({k: tuple(v) for k, v in evidence.items()}, matrix_page, sources_page, tuple(sources))


def cited_sources(ctx: Context) -> list[SourceLine]:
    """Every distinct (file, text) a source claim cites, sorted by file and line. Raises
    :class:`SourceError` at the claim for a text the installed package does not hold."""
    found: dict[tuple[str, str], SourceLine] = {}
    problems = []
    for page, claim in ctx.site.source_claims:
        file, text = claim.evidence[len("source:") :], claim.contains or ""
        known = found.get((file, text))
        if known is not None:
            if page not in known.pages:
                found[(file, text)] = replace(known, pages=known.pages + (page,))
            continue
        lines = locate(file, text, ctx)
        if isinstance(lines, str):
            problems.append(Problem(claim.where, f'claim: {claim.evidence}: the page cites "{text}"; {lines}'))
            continue
        line_text = _source_text(ctx.package.parent / file)[lines[0] - 1].strip()
        found[(file, text)] = SourceLine(file, text, lines, line_text, source_anchor(file, text), (page,))
    if problems:
        raise SourceError(*problems)
    return sorted(found.values(), key=lambda s: (s.file, s.lines))


def render_sources(directive: Directive, page: str, ctx: Context, titles: dict[str, str] | None = None) -> str:
    """Markdown list of every cited source line (``file:line``, the line as installed, the
    pages citing it), each with the id its claims link to; indented like ``directive``."""
    titles = titles or {}
    items = [
        f"<span {marker(directive)}></span>The installed toolnexus {ctx.toolnexus}, as this build ran it. "
        "Each line below is cited by a "
        "sentence of the pages; the build fails when the package no longer holds it.",
        "",
    ]
    for s in cited_sources(ctx):
        where = f"{s.file}:{s.lines[0]}" + (f" (and line {', '.join(map(str, s.lines[1:]))})" if s.lines[1:] else "")
        cited_by = ", ".join(f"[{titles.get(p, p)}]({_page_link(page, p)})" for p in s.pages)
        items.append(f'- <span id="{s.anchor}"></span>{code(where)}: {code(s.text)}  ')
        items.append(f"  cited by {cited_by}")
    if len(items) == 2:
        items.append("No page cites a source line.")
    return "".join(directive.indent + line + "\n" if line else "\n" for line in items)
