"""Source-only sentences and the reason they give: a claim about what a run does rests on a
run wherever a run can show it, so a sentence backed by the installed source alone must say
why no run can.

A **source-only sentence** is a claimed sentence (:func:`~verified_docs.render.claim_record.sentence`,
claims of one page grouped by its text) whose claims include a ``source:`` claim and neither a
scenario claim (``<scenario>#<run>.<key>``) nor a ``matrix:`` claim; a ``rule:`` claim is no
run. Each of its ``source:`` claims carries ``why="..."``, a clause of :data:`MIN_WORDS` words
or more saying why no run can show the behaviour. ``why`` on any other claim is an error: its
sentence rests on a run, or the claim is no ``source:`` claim.
"""

from __future__ import annotations

from dataclasses import dataclass

from verified_docs.errors import Problem
from verified_docs.render.claim_parse import Claim
from verified_docs.render.claim_record import sentence, words

MIN_WORDS = 4
RUN_KINDS = ("scenario", "matrix")
_RUN_FORMS = 'evidence="<scenario>#<run>.<key>" (a key of a run\'s expect) or evidence="matrix:<scenario>"'


@dataclass(frozen=True)
class SourceOnly:
    """A source-only sentence of a page: its normalised ``text`` and its ``source:`` claims,
    in page order."""

    text: str
    claims: tuple[Claim, ...]

    @property
    def without_why(self) -> tuple[Claim, ...]:
        """Its source claims that give no reason why no run can show the behaviour."""
        return tuple(c for c in self.claims if not (c.why or "").strip())


def by_sentence(claims: list[Claim]) -> dict[str, list[Claim]]:
    """One page's ``claims`` grouped by their sentence's text, each group in page order."""
    groups: dict[str, list[Claim]] = {}
    for c in claims:
        groups.setdefault(sentence(c), []).append(c)
    return groups


def source_only(claims: list[Claim]) -> list[SourceOnly]:
    """The source-only sentences of one page's ``claims`` (all of them, in order)."""
    out = []
    for text, group in by_sentence(claims).items():
        kinds = {c.kind for c in group}
        if "source" in kinds and not kinds & set(RUN_KINDS):
            out.append(SourceOnly(text, tuple(c for c in group if c.kind == "source")))
    return out


def _shown(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _problem(c: Claim, text: str, runs: list[Claim]) -> Problem | None:
    """The problem of claim ``c`` of the sentence ``text`` (``runs``: its scenario and matrix
    claims), or None."""
    # The text it cites names the claim: two claims on a line may share evidence and quote.
    cites = f" ({c.contains})" if c.kind == "source" and c.contains else ""
    head, said = f"claim: {c.evidence}{cites}:", (c.why or "").strip()
    if c.kind != "source" or runs:
        if c.why is None:
            return None
        rests_on = (runs or [c])[0].evidence
        return Problem(
            c.where,
            f"{head} remove why=, the sentence rests on {rests_on}",
            ("why= is for a source: claim whose sentence no run backs",),
        )
    if not said:
        return Problem(
            c.where,
            f"{head} the sentence rests on source alone, and the claim does not say why no run can show it",
            (
                f'sentence: "{_shown(text)}"',
                f"back the sentence with a run: a claim {_RUN_FORMS}",
                f'or, where no run can show it, add why="<why no run can show it>" ({MIN_WORDS} words or more)',
            ),
        )
    if len(words(said).split()) < MIN_WORDS:
        return Problem(
            c.where,
            f'{head} why="{said}" is too short to say why no run can show it ({MIN_WORDS} words or more)',
            (f"or back the sentence with a run: a claim {_RUN_FORMS}",),
        )
    return None


def why_problems(claims: list[Claim]) -> list[Problem]:
    """A problem for each claim of one page's ``claims`` (all of them) at fault, in page order:
    a ``source:`` claim of a source-only sentence without ``why`` or with fewer than
    :data:`MIN_WORDS` words in it, and a ``why`` on any other claim."""
    found = []
    for text, group in by_sentence(claims).items():
        runs = [c for c in group if c.kind in RUN_KINDS]
        found += [p for p in (_problem(c, text, runs) for c in group) if p is not None]
    return sorted(found, key=lambda p: p.where.line)
