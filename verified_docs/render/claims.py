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
- ``rule:<id>`` (an id of ``rules/spec-10.yaml``), optionally with ``contains="..."``: what the
  SPEC or an upstream document says; the text must stand in a quote of the rule's sources or
  in its note (:mod:`~verified_docs.render.claim_rule`).

``quote`` is required: words of the sentence that the evidence backs, which must stand in the
same paragraph before the claim (after the previous claim, if any; claims written one right
after the other share their sentence). Editing the sentence to say
something else loses the words; editing the claim to say something else loses the evidence:
either fails the build at ``page.md:line``. Editing the sentence while keeping the words fails
too: the whole sentence is recorded when its evidence is first confirmed, and compared in every
build (:mod:`~verified_docs.render.claim_record`). Values may be quoted with ``'...'`` to hold ``"``.

A claim that ends its paragraph may also be a block: a first line without ``-->``, then more
attributes as YAML ``name: value`` lines, then ``-->`` on a line of its own and a blank line::

    ... the model is shown what the tool returned.<!-- claim evidence="x#run.tool_results_shown.0" quote="shown"
    value: deployed to staging, approved by dana
    -->

A name may stand on the first line or below it, not both. The link takes the first line's
place; the block's other lines are left empty, so every line keeps its number.

A checked claim becomes a small superscript link: to the run's part of the scenario's evidence
box (on the same page when it has one), to the scenario's row of the release matrix, to the
rule's entry on the contract page (``<!-- verified-contract -->``), or to the
entry of the list of cited source lines (``<!-- verified-sources -->``, :func:`~verified_docs.render.claim_source.render_sources`),
which shows ``file:line`` and the line as installed. Claims in code fences and inline code are
text, not claims.

This module checks and renders one page's claims; :mod:`~verified_docs.render.claim_parse`
finds them, :mod:`~verified_docs.render.claim_scenario`, :mod:`~verified_docs.render.claim_matrix`
and :mod:`~verified_docs.render.claim_source` check each kind of evidence, and
:mod:`~verified_docs.render.claim_context` holds what they share.
"""

from __future__ import annotations

from pathlib import Path

from verified_docs.errors import Location, Problem, SourceError
from verified_docs.render.claim_context import Checked, Context
from verified_docs.render.claim_matrix import check_matrix
from verified_docs.render.claim_parse import OPENING, Claim, masked_lines, parse_claims
from verified_docs.render.claim_record import words
from verified_docs.render.claim_rule import check_rule
from verified_docs.render.claim_scenario import check_scenario
from verified_docs.render.claim_source import check_source
from verified_docs.render.claim_why import why_problems
from verified_docs.render.directive import fenced_lines
from verified_docs.render.factual import strip_advice

_CHECKS = {"scenario": check_scenario, "matrix": check_matrix, "source": check_source, "rule": check_rule}


def _tail(text: str, limit: int = 200) -> str:
    """The end of ``text``, cut at a word, so a long paragraph shows the part next to the claim."""
    return text if len(text) <= limit else "…" + text[-limit:].split(" ", 1)[-1]


def check_claim(claim: Claim, page: str, ctx: Context) -> Checked:
    """The link for ``claim`` on ``page`` (posix, below docs/). Raises :class:`SourceError` at
    the claim when its quote is not in its sentence, it points at nothing, or its evidence
    says otherwise."""
    if words(claim.quote) not in words(claim.sentence):
        raise SourceError(
            Problem(
                claim.where,
                f'claim\'s words "{claim.quote}" are not in its sentence',
                (f'its sentence: "{_tail(words(claim.sentence))}"',),
            )
        )
    return _CHECKS[claim.kind](claim, page, ctx)


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
    """``markdown`` with every claim replaced by its link, on the same line, and a block claim's
    lines below it left empty (line numbers do not change). Each claim whose evidence held has
    its sentence compared with (or recorded in) ``ctx.sentences``, the record of claimed
    sentences (:mod:`~verified_docs.render.claim_record`), when there is one. Raises
    :class:`SourceError` listing every malformed or failing claim, every ``source:`` claim of a
    sentence resting on source alone that does not say why no run can show it and every
    misplaced ``why`` (:mod:`~verified_docs.render.claim_why`), and every claimed sentence
    that differs from its record, at its ``page:line``. Advice marks
    (:func:`~verified_docs.render.factual.strip_advice`) are taken out first, in place."""
    markdown = strip_advice(markdown)
    claims = parse_claims(markdown, page)
    if not claims:
        return markdown
    checked_claims: list[Checked] = []
    problems: list[Problem] = []
    held = []
    for c in claims:
        try:
            checked_claims.append(check_claim(c, page_uri, ctx))
            held.append(True)
        except SourceError as e:
            problems += e.problems
            held.append(False)
    # A sentence resting on source alone says why no run can show it (render/claim_why.py).
    problems += why_problems(claims)
    if ctx.sentences is not None:
        problems += ctx.sentences.check(page_uri, claims, held)
    if problems:
        raise SourceError(*problems)
    lines = markdown.splitlines(keepends=True)
    for checked in reversed(checked_claims):
        number, (start, end) = checked.claim.where.line, checked.claim.span
        lines[number - 1] = lines[number - 1][:start] + render_link(checked) + lines[number - 1][end:]
        # A block claim's other lines stay, empty: it ends its paragraph, and the lines below
        # keep their numbers.
        for i in range(number, number + checked.claim.lines - 1):
            lines[i] = lines[i][len(lines[i].rstrip("\r\n")) :]
    return "".join(lines)


def leftover_claims(rendered: str, page: Path, source: str) -> list[Problem]:
    """A problem for each claim comment still in ``rendered`` (a page's final Markdown) outside
    code, at its line in ``source`` (the page as written) when it is found there."""
    source_lines = source.splitlines()
    problems = []
    for line, masked, fenced in zip(rendered.splitlines(), masked_lines(rendered), fenced_lines(rendered), strict=True):
        if fenced or not OPENING.search(masked):
            continue
        number = next((i for i, s in enumerate(source_lines, start=1) if s == line), 0)
        problems.append(
            Problem(Location(Path(page), number), "a claim was left in the page unrendered", (line.strip()[:200],))
        )
    return problems
