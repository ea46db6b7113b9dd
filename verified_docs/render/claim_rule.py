"""Check a claim against the SPEC rules file (``rule:<id>``, optionally with ``contains="..."``):
what the SPEC or an upstream document says, which no run of the installed package can show.
The rule must be in ``rules/spec-10.yaml``, and ``contains`` a text one of its sources' quotes
or its note holds (the file's own words for the upstream fact, read when it was written).
"""

from __future__ import annotations

from verified_docs.errors import Problem, SourceError
from verified_docs.render.claim_context import CHECK_MARK, Checked, Context, contradicted, link, valid_names
from verified_docs.render.claim_parse import Claim
from verified_docs.scenario.rules import RULES_FILE, Rule, load_rules


def _texts(rule: Rule) -> list[str]:
    """What a ``contains`` may be found in: each source's quote, then the note."""
    return [s.quote for s in rule.sources if s.quote] + ([rule.note] if rule.note else [])


def check_rule(claim: Claim, page: str, ctx: Context) -> Checked:
    """The link for a ``rule:`` claim on ``page`` (posix, below docs/), to the rule's entry on
    the contract page. Raises :class:`SourceError` at the claim for a rule the rules file does
    not hold, a ``contains`` none of its quotes or its note holds, or no contract page."""
    where, rid = claim.where, claim.evidence[len("rule:") :]
    head = f"claim: {claim.evidence}:"
    rules = {r.id: r for r in load_rules(ctx.root / RULES_FILE)}
    rule = rules.get(rid)
    if rule is None:
        raise SourceError(
            Problem(
                where, f"claim points at nothing: {RULES_FILE} has no rule {rid!r}", valid_names(list(rules), "rules")
            )
        )
    if claim.contains is not None and not any(claim.contains in t for t in _texts(rule)):
        raise contradicted(
            where,
            f'{head} the page cites "{claim.contains}"; no quote of the rule\'s sources and not its note holds it',
            *(f"holds: {t}" for t in _texts(rule)),
        )
    if ctx.site.contract_page is None:
        raise SourceError(
            Problem(where, f"{head} no page shows the contract", ("add <!-- verified-contract --> to a page",))
        )
    return Checked(
        claim,
        link(page, ctx.site.contract_page, rule.id.lower()),
        CHECK_MARK,
        _title(rule, claim.contains),
        f"Contract rule {rule.id}: {rule.title}",
    )


def _title(rule: Rule, contains: str | None) -> str:
    """The link's tooltip: the source whose quote holds ``contains`` (or, for a text of the
    note, that the note is this site's words about the rule), else every document cited."""
    head = f"{rule.id} {rule.title}"
    if contains is not None:
        for s in rule.sources:
            if s.quote and contains in s.quote:
                return f"{head}: {s.document.name}, {s.where}: “{s.quote}”"
        return f"{head}: this site's note on the rule ({RULES_FILE}) says “{contains}”"
    return f"{head}, as written in " + ", ".join(dict.fromkeys(s.document.name for s in rule.sources))
