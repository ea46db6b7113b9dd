"""What every claim checker shares: the :class:`Context` a build checks claims against (with
the :class:`Site`, where in ``docs/`` a claim can point, read by :func:`scan_site`), the
:class:`Checked` link a claim that held becomes, and the relative links between pages.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from pathlib import Path

from verified_docs.errors import Location, Problem, SourceError
from verified_docs.ledger import Ledger
from verified_docs.render.claim_parse import Claim, parse_claims
from verified_docs.render.claim_record import Sentences
from verified_docs.render.directive import Directive, find_directives
from verified_docs.render.release_matrix import Matrix
from verified_docs.scenario.records import Scenario

CHECK_MARK = "✓"
# The annotation title of a claim whose evidence says otherwise: the one failure a reviewer
# answers by reading the sentence again, not the syntax.
CONTRADICTED = "claim contradicted"


@dataclass(frozen=True)
class Site:
    """Where a claim can point, found in ``docs/``: the pages (posix, below ``docs/``) showing
    each scenario's evidence box, the page with the release matrix, the page listing cited
    source lines, every source claim of every page (for that list), and the page showing the
    SPEC §10 contract (``rule:`` claims link to its entries)."""

    evidence_pages: dict[str, tuple[str, ...]]
    matrix_page: str | None
    sources_page: str | None
    source_claims: tuple[tuple[str, Claim], ...]
    contract_page: str | None = None


@dataclass(frozen=True)
class Context:
    """What claims are checked against in one build: the scenarios, the ledger of what passed,
    the project ``root``, the release matrix (None when never measured), the :class:`Site`, and
    the installed toolnexus ``package`` folder and its ``toolnexus`` version, and the record
    of claimed sentences (None: sentences are not compared)."""

    scenarios: dict[str, Scenario]
    ledger: Ledger
    root: Path
    matrix: Matrix | None
    site: Site
    package: Path
    toolnexus: str
    sentences: Sentences | None = None


@dataclass(frozen=True)
class Checked:
    """A claim whose evidence held, and its link: ``target`` (a relative Markdown link), the
    visible ``text``, the ``title`` (tooltip) and the accessible ``label``."""

    claim: Claim
    target: str
    text: str
    title: str
    label: str


def page_link(page: str, target_page: str) -> str:
    """Relative Markdown link from ``page`` to ``target_page`` (both posix, below docs/)."""
    return posixpath.relpath(target_page, posixpath.dirname(page) or ".")


def link(page: str, target_page: str, anchor: str) -> str:
    """Relative Markdown link from ``page`` to ``anchor`` on ``target_page``."""
    return f"#{anchor}" if target_page == page else f"{page_link(page, target_page)}#{anchor}"


def valid_names(names: list[str] | tuple[str, ...], what: str) -> tuple[str, ...]:
    """The detail line listing the valid ``names`` (``what`` says of what) for a name that is none."""
    return (f"valid {what}: {', '.join(names) or '(none)'}",)


def scan_site(docs: Path) -> Site:
    """Read every page under ``docs`` for directives and source claims (see :class:`Site`).
    Raises :class:`SourceError` with the problem of every page holding a malformed directive or
    claim, or a code fence never closed, each once: every page's rendering needs this scan,
    so the render stage reports these before it renders any page (not once per page)."""
    evidence: dict[str, list[str]] = {}
    matrix_page = sources_page = contract_page = None
    sources: list[tuple[str, Claim]] = []
    problems: list[Problem] = []
    for path in sorted(Path(docs).rglob("*.md")):
        rel, text = path.relative_to(docs).as_posix(), path.read_text(encoding="utf-8")
        directives: list[Directive] = []
        claims: list[Claim] = []
        try:
            directives = find_directives(text, path)
        except SourceError as e:
            problems += e.problems
        try:
            claims = parse_claims(text, path) if "claim" in text else []
        except SourceError as e:
            problems += e.problems
        for d in directives:
            if d.kind == "evidence":
                evidence.setdefault(d.scenario, []).append(rel)
            elif d.kind == "matrix":
                matrix_page = matrix_page or rel
            elif d.kind == "sources":
                sources_page = sources_page or rel
            elif d.kind == "contract":
                contract_page = contract_page or rel
        sources += [(rel, c) for c in claims if c.kind == "source"]
    if problems:
        raise SourceError(*problems)
    return Site({k: tuple(v) for k, v in evidence.items()}, matrix_page, sources_page, tuple(sources), contract_page)


def points_at_nothing(e: SourceError) -> SourceError:
    """The one problem of ``e`` (an unknown name) as a claim that points at nothing: the error
    a claim checker raises in its place."""
    (p,) = e.problems
    return SourceError(Problem(p.where, f"claim points at nothing: {p.what}", p.details))


def contradicted(where: Location, what: str, *details: str) -> SourceError:
    """The error a claim checker raises when the evidence says otherwise than the claim at
    ``where`` (a value, a text or a first release that differs): its problem is annotated
    as :data:`CONTRADICTED`, not as bad input."""
    return SourceError(Problem(where, what, details, title=CONTRADICTED))
