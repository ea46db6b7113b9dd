"""Render a ``verified-diagram`` directive: a sequence diagram of each run, drawn from the run
as the ledger recorded it in this build, with the same messages as an ordered list (the
diagram's text alternative, in a collapsed block of its caption).

The Mermaid text comes from :meth:`~verified_docs.ledger.Ledger.diagram`, so it is exactly
what the guard accepts; Material's Mermaid integration draws it in the browser from the
bundled script (:mod:`verified_docs.render.vendor`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from verified_docs.errors import Problem, SourceError
from verified_docs.ledger import CHANGED, Ledger
from verified_docs.render.directive import Directive
from verified_docs.render.templating import render
from verified_docs.run.languages import LANGUAGES
from verified_docs.scenario.load import find_scenario
from verified_docs.scenario.records import Run, Scenario
from verified_docs.verify.timeline import steps_in_words


@dataclass(frozen=True)
class RunDiagram:
    """One run's picture: ``run`` and ``program`` (file name) name it, ``language`` is the
    language's display name, ``mermaid`` the diagram's text ("" when the run recorded no
    message: nothing to draw), ``steps`` the same messages in words, in order, as (who to
    whom, what) pairs."""

    run: str
    program: str
    language: str
    mermaid: str
    steps: tuple[tuple[str, str], ...]

    @property
    def fence(self) -> str:
        """A backtick run longer than any in the diagram (Mermaid text escapes them anyway)."""
        longest = max((len(r) for r in re.findall(r"`+", self.mermaid)), default=0)
        return "`" * max(3, longest + 1)


def resolve_diagrams(
    directive: Directive, scenarios: dict[str, Scenario], ledger: Ledger, root: Path
) -> tuple[RunDiagram, ...]:
    """The diagrams ``directive`` asks for: every run of its scenario in order (or only
    ``run``), each language in :data:`LANGUAGES` order.

    Raises :class:`SourceError` at the directive for an unknown scenario or run (listing the
    valid names), for a program the ledger does not show passing in this build with this exact
    content, and when none of the runs recorded a message (a page would show no picture).
    """
    scenario, runs = _chosen_runs(directive, scenarios)
    out = [
        _run_diagram(directive, run, lang, ledger, root) for run in runs for lang in LANGUAGES if lang in run.programs
    ]
    if not any(d.mermaid for d in out):
        raise SourceError(
            Problem(
                directive.where,
                f"no run of '{scenario.name}' sent the model a request or called "
                "toolnexus (a run, a tool, wait_for): there is nothing to draw",
                ("remove the directive, or name a scenario whose runs talk to the model",),
            )
        )
    return tuple(out)


def _chosen_runs(directive: Directive, scenarios: dict[str, Scenario]) -> tuple[Scenario, tuple[Run, ...]]:
    """The scenario ``directive`` names and the runs it draws (all, or the one it names).
    Raises :class:`SourceError` at the directive for an unknown scenario or run."""
    scenario = find_scenario(scenarios, directive.scenario, directive.where)
    if not directive.run:
        return scenario, scenario.runs
    runs = tuple(r for r in scenario.runs if r.name == directive.run)
    if not runs:
        raise SourceError(
            Problem(
                directive.where,
                f"scenario '{scenario.name}' has no run '{directive.run}'",
                (f"valid runs: {', '.join(r.name for r in scenario.runs)}",),
            )
        )
    return scenario, runs


def _run_diagram(directive: Directive, run: Run, lang: str, ledger: Ledger, root: Path) -> RunDiagram:
    """The diagram of ``run``'s ``lang`` program as the ledger recorded it. Raises
    :class:`SourceError` at ``directive`` when the ledger does not show it passing in this
    build with this exact content."""
    program = run.programs[lang]
    rel = program.path.resolve().relative_to(root.resolve()).as_posix()
    doubt = ledger.doubt(rel, program.path, run=run.name)
    if doubt not in (None, CHANGED):
        raise SourceError(
            Problem(
                directive.where,
                f"{rel} {doubt} in this build; the page cannot draw its run '{run.name}'",
                ("run `nox -s docs`, which verifies every example before building",),
            )
        )
    if doubt == CHANGED:
        raise SourceError(
            Problem(
                directive.where,
                f"{rel} changed after it was verified; its diagram would draw an earlier program",
                ("run `nox -s docs` again",),
            )
        )
    messages = ledger.story(rel, run.name)
    return RunDiagram(
        run.name,
        program.path.name,
        LANGUAGES[lang].display,
        ledger.diagram(rel, run.name),
        steps_in_words(messages, program.path.name),
    )


def render_diagrams(directive: Directive, scenarios: dict[str, Scenario], ledger: Ledger, root: Path) -> str:
    """Markdown for ``directive``: a figure per run with a message (Mermaid fence, caption,
    the steps in words), a sentence for each run without one; indented like the directive."""
    diagrams = resolve_diagrams(directive, scenarios, ledger, root)
    languages = {d.language for d in diagrams}
    return render(
        "diagram.md.j2", directive.indent, directive=directive, diagrams=diagrams, several_languages=len(languages) > 1
    )
