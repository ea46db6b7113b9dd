"""Check a claim against the installed toolnexus source (``source:toolnexus/<file>.py`` with
``contains="..."``), found through importlib and never imported, and render the list of every
cited source line (``<!-- verified-sources -->``) that those claims link to.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path

from verified_docs.errors import Problem, SourceError
from verified_docs.render.anchors import source_anchor
from verified_docs.render.claim_context import Checked, Context, contradicted, link, page_link
from verified_docs.render.claim_parse import Claim
from verified_docs.render.claim_record import words
from verified_docs.render.directive import Directive, marker
from verified_docs.render.templating import code

WHY_LABEL = "Why no run shows it"


@dataclass(frozen=True)
class SourceLine:
    """A cited text of the installed toolnexus: ``file`` (``toolnexus/client.py``), the
    1-based ``lines`` holding ``contains``, the first such line's ``text``, its ``anchor``, the
    ``pages`` citing it, and ``whys``: (page, reason) for each distinct reason a citing claim
    gives why no run can show what its sentence says."""

    file: str
    contains: str
    lines: tuple[int, ...]
    text: str
    anchor: str
    pages: tuple[str, ...]
    whys: tuple[tuple[str, str], ...] = ()


def installed_toolnexus() -> tuple[Path, str]:
    """The folder and version of the toolnexus this interpreter would import (not imported).
    Raises :class:`FileNotFoundError` when it is not installed."""
    spec = importlib.util.find_spec("toolnexus")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("toolnexus is not installed in this environment; source claims cannot be checked")
    return Path(list(spec.submodule_search_locations)[0]), version("toolnexus")


@lru_cache(maxsize=64)
def _source_text(path: Path) -> tuple[str, ...]:
    return tuple(path.read_text(encoding="utf-8").splitlines())


def locate(claim: Claim, ctx: Context) -> tuple[int, ...]:
    """1-based lines of the installed file a ``source:`` claim names (``toolnexus/x.py``)
    holding its ``contains``. Raises :class:`SourceError` at the claim when there are none:
    the installed toolnexus has no such file, or no such text in it."""
    file, contains = claim.evidence[len("source:") :], claim.contains or ""
    path = ctx.package.parent / file
    head = f'claim: {claim.evidence}: the page cites "{contains}";'
    if not path.is_file():
        why = f"the installed toolnexus {ctx.toolnexus} has no {file} (looked in {ctx.package})"
        raise SourceError(Problem(claim.where, f"{head} {why}"))
    lines = tuple(i for i, text in enumerate(_source_text(path), start=1) if contains in text)
    if not lines:
        raise contradicted(claim.where, f"{head} the installed toolnexus {ctx.toolnexus} has no such text in {file}")
    return lines


def check_source(claim: Claim, page: str, ctx: Context) -> Checked:
    """The link for a ``source:`` claim on ``page`` (posix, below docs/), to its entry of the
    list of cited source lines. Raises :class:`SourceError` at the claim when the installed
    toolnexus is not the one this build verified against, its file does not hold the text, or
    no page lists the lines."""
    where, file = claim.where, claim.evidence[len("source:") :]
    head = f"claim: {claim.evidence}:"
    if ctx.toolnexus != ctx.ledger.toolnexus:
        raise SourceError(
            Problem(
                where,
                f"{head} the installed toolnexus is {ctx.toolnexus}, but this build verified "
                f"its examples against {ctx.ledger.toolnexus}",
            )
        )
    found = locate(claim, ctx)
    if ctx.site.sources_page is None:
        raise SourceError(
            Problem(where, f"{head} no page lists the cited source lines", ("add <!-- verified-sources --> to a page",))
        )
    line_text = _source_text(ctx.package.parent / file)[found[0] - 1].strip()
    # A sentence resting on source alone says why no run shows it: the reader sees why too.
    why = f". {WHY_LABEL}: {words(claim.why)}" if claim.why else ""
    return Checked(
        claim,
        link(page, ctx.site.sources_page, source_anchor(file, claim.contains or "")),
        f"{Path(file).name}:{found[0]}",
        f"toolnexus {ctx.toolnexus}, {file}:{found[0]}: {line_text}{why}",
        f"Source line {file}:{found[0]} of the installed toolnexus {ctx.toolnexus}, checked in this build{why}",
    )


def cited_sources(ctx: Context) -> list[SourceLine]:
    """Every distinct (file, text) a source claim cites, sorted by file and line. Raises
    :class:`SourceError` at the claim for a text the installed package does not hold."""
    found: dict[tuple[str, str], SourceLine] = {}
    problems: list[Problem] = []
    for page, claim in ctx.site.source_claims:
        file, text = claim.evidence[len("source:") :], claim.contains or ""
        why = ((page, words(claim.why)),) if claim.why else ()
        known = found.get((file, text))
        if known is not None:
            pages = known.pages + (() if page in known.pages else (page,))
            found[(file, text)] = replace(known, pages=pages, whys=known.whys + tuple(set(why) - set(known.whys)))
            continue
        try:
            lines = locate(claim, ctx)
        except SourceError as e:
            problems += e.problems
            continue
        line_text = _source_text(ctx.package.parent / file)[lines[0] - 1].strip()
        found[(file, text)] = SourceLine(file, text, lines, line_text, source_anchor(file, text), (page,), why)
    if problems:
        raise SourceError(*problems)
    return sorted(found.values(), key=lambda s: (s.file, s.lines))


def render_sources(directive: Directive, page: str, ctx: Context, titles: dict[str, str] | None = None) -> str:
    """Markdown list of every cited source line (``file:line``, the line as installed, the
    pages citing it, and each reason a citing claim gives why no run can show it), each with
    the id its claims link to; indented like ``directive``."""
    titles = titles or {}
    items = [
        f"<span {marker(directive)}></span>The installed toolnexus {ctx.toolnexus}, as this build ran it. "
        "Each line below is cited by a "
        "sentence of the pages; the build fails when the package no longer holds it.",
        "",
    ]
    for s in cited_sources(ctx):
        where = f"{s.file}:{s.lines[0]}" + (f" (and line {', '.join(map(str, s.lines[1:]))})" if s.lines[1:] else "")
        cited_by = ", ".join(f"[{titles.get(p, p)}]({page_link(page, p)})" for p in s.pages)
        items.append(f'- <span id="{s.anchor}"></span>{code(where)}: {code(s.text)}  ')
        items.append(f"  cited by {cited_by}" + ("  " if s.whys else ""))
        for n, (p, why) in enumerate(s.whys, start=1):
            end = "  " if n < len(s.whys) else ""
            items.append(f"  {WHY_LABEL.lower()} ([{titles.get(p, p)}]({page_link(page, p)})): {why}{end}")
    if len(items) == 2:
        items.append("No page cites a source line.")
    return "".join(directive.indent + line + "\n" if line else "\n" for line in items)
