"""Render the evidence a scenario is checked against, in words, from its ``scenario.yaml``.

Pages state what a build proved by including this block instead of restating it by hand, so
the prose and the checks cannot drift apart. The box carries a stable id per scenario and per
run (:mod:`verified_docs.render.anchors`), which the claims on a page link to.
"""

from __future__ import annotations

import json
import posixpath
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from verified_docs.errors import Problem, SourceError
from verified_docs.ledger import SCENARIO_CHANGED, Ledger
from verified_docs.reader_commands import try_command
from verified_docs.render.anchors import evidence_anchor
from verified_docs.render.directive import Directive
from verified_docs.render.release_matrix import Matrix
from verified_docs.render.templating import code, render
from verified_docs.scenario.load import find_scenario
from verified_docs.scenario.records import Expect, Scenario


@dataclass(frozen=True)
class RunEvidence:
    """One run's evidence as sentences: ``label`` names the run and its programs; ``anchor``
    is the id claims about this run link to."""

    label: str
    args: tuple[str, ...]
    lines: tuple[str, ...]
    anchor: str = ""


def one_line(text: str) -> str:
    """``text`` on one line (an admonition's list item cannot hold a raw newline): ⏎ marks breaks."""
    return text.replace("\r\n", "\n").replace("\n", " ⏎ ")


def answer_text(answer: dict[str, Any] | None) -> str:
    """``Answer(id=..., ok=..., data=...)`` as Python would write it, omitting unset fields."""
    if answer is None:
        return "none"
    parts = [f"id={json.dumps(answer['id'])}", f"ok={answer['ok']!r}"]
    if answer.get("data") is not None:
        parts.append(f"data={json.dumps(answer['data'])}")
    if answer.get("reason") is not None:
        parts.append(f"reason={json.dumps(answer['reason'])}")
    return code(f"Answer({', '.join(parts)})")


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def sentences(e: Expect, output_shown: bool = False) -> tuple[str, ...]:
    """Each stated evidence item of ``e`` as one sentence, in a fixed order. With
    ``output_shown`` (the page shows this run's output, which equals what it printed), the
    lines it must have printed are one sentence instead of one each."""
    out = _process_sentences(e) + _tool_sentences(e) + _run_sentences(e) + _output_sentences(e, output_shown)
    return tuple(s[0].upper() + s[1:] + "." for s in out)


def _process_sentences(e: Expect) -> list[str]:
    """The program's exit code (when not 0) and how many requests the model received."""
    out = []
    if e.exit_code != 0:
        out.append(f"the program exits with code {e.exit_code}")
    if e.model_requests is not None:
        out.append(f"the model received {_count(e.model_requests, 'request')}")
    return out


def _tool_sentences(e: Expect) -> list[str]:
    """What the tools ran, got as ``ctx.answer``, suspended with and read, and ``wait_for``'s calls."""
    out = []
    if e.tool_runs is not None:
        runs = [
            f"{code(name)} never ran" if n == 0 else f"{code(name)} ran {_times(n)}" for name, n in e.tool_runs.items()
        ] or ["no tool ran"]
        out.append(", ".join(runs))
    if e.tool_answers is not None:
        if e.tool_answers:
            seen = "; ".join(f"{code(a['tool'])} got {answer_text(a['answer'])}" for a in e.tool_answers)
            out.append(f"`ctx.answer` at each tool execution, in order: {seen}")
        else:
            out.append("no tool execution received `ctx.answer`")
    if e.requests_raised is not None:
        shown = "; ".join(code(json.dumps(r, sort_keys=True)) for r in e.requests_raised) or "none"
        out.append(f"the Requests the tools suspended with: {shown}")
    if e.answer_data_read:
        reads = ", ".join("yes" if r else "no" for r in e.answer_data_read)
        out.append(f"the tool read `ctx.answer.data` when it had an Answer: {reads}")
    if e.wait_for_calls is not None:
        out.append(
            "`wait_for` was never called"
            if e.wait_for_calls == 0
            else f"`wait_for` was called {_times(e.wait_for_calls)}"
        )
    return out


def _run_sentences(e: Expect) -> list[str]:
    """What happened in order, the tool metric events, what the model was shown, whether the
    transcript was balanced, and the run statuses."""
    out = []
    if e.sequence is not None:
        out.append("what happened, in order: " + " → ".join(code(x) for x in e.sequence))
    if e.tool_metrics is not None:
        shown = (
            "; ".join(
                f"{code(m['tool'])} is_error={m['is_error']}{' pending' if m['pending'] else ''}"
                for m in e.tool_metrics
            )
            or "none"
        )
        out.append(f"tool metric events: {shown}")
    if e.tool_results_shown is not None:
        shown = "; ".join(code(one_line(s)) for s in e.tool_results_shown) or "no tool result at all"
        out.append(f"the tool results the model was shown: {shown}")
    if e.transcript_balanced is True:
        out.append("every tool call in every request had its tool result (a strict provider accepts it)")
    elif e.transcript_balanced is False:
        out.append("at least one request carried a tool call without its tool result (a strict provider refuses it)")
    if e.run_statuses is not None:
        out.append("run status: " + (", ".join(code(s) for s in e.run_statuses) or "no run finished"))
    return out


def _output_sentences(e: Expect, output_shown: bool) -> list[str]:
    """The lines the program must have printed: one sentence each, or one for them all when
    ``output_shown``."""
    if output_shown and e.stdout_contains:
        return [f"it printed the output shown on this page, {_count(len(e.stdout_contains), 'named line')} included"]
    return [f"the program printed {code(one_line(text))}" for text in e.stdout_contains]


def render_evidence(
    directive: Directive,
    scenarios: dict[str, Scenario],
    ledger: Ledger,
    root: Path,
    matrix: Matrix | None = None,
    shown_runs: frozenset[str] = frozenset(),
    page_src_uri: str = "page.md",
) -> str:
    """Markdown for a collapsed admonition listing the evidence of ``directive.scenario``, its
    summary counting the checks that held. ``shown_runs`` are the runs whose output the page
    shows, whose printed lines are then not listed again. Under the box, a reader is told how
    to run the example offline: one console block per run with the ``try`` command that prints
    its output, then the files a copy needs together and each run's command line, with a link
    to the home page's quick start, relative to ``page_src_uri``, the page below ``docs/``.

    Raises :class:`SourceError` at the directive for an unknown scenario, or one whose programs
    the ledger does not vouch for as they are (:meth:`~verified_docs.ledger.Ledger.doubt`).
    """
    scenario = _verified_scenario(directive, scenarios, ledger, root)
    runs = [
        RunEvidence(
            f"{run.name} ({', '.join(sorted({p.path.name for p in run.programs.values()}))})",
            run.args,
            sentences(run.expect, run.name in shown_runs),
            evidence_anchor(scenario.name, run.name),
        )
        for run in scenario.runs
    ]
    since = None
    if matrix is not None and scenario.name in matrix.scenarios:
        since = matrix.since_sentence(scenario.name)
    checks = sum(len(r.lines) for r in runs)
    return render(
        "evidence.md.j2",
        directive.indent,
        directive=directive,
        scenario=scenario,
        runs=runs,
        since=since,
        anchor=evidence_anchor(scenario.name),
        checks=checks,
        reader=reader_runs(scenario),
        shown_runs=shown_runs,
        has_model=any(r.steps for r in scenario.runs),
        files=scenario_files(scenario),
        # A site without a home page (a test project, say) has no quick start to link.
        quick_start=(
            posixpath.relpath("index.md", posixpath.dirname(page_src_uri)) + "#quick-start"
            if (root / "docs" / "index.md").is_file()
            else None
        ),
    )


def _verified_scenario(directive: Directive, scenarios: dict[str, Scenario], ledger: Ledger, root: Path) -> Scenario:
    """The scenario ``directive`` names, every program of every run of it verified green in
    this build from its scenario.yaml as it is now. Raises :class:`SourceError` at the
    directive otherwise."""
    scenario = find_scenario(scenarios, directive.scenario, directive.where)
    for run in scenario.runs:
        for program in run.programs.values():
            rel = program.path.resolve().relative_to(root.resolve()).as_posix()
            doubt = ledger.doubt(rel, program.path, scenario_file=scenario.folder / "scenario.yaml")
            if doubt not in (None, SCENARIO_CHANGED):
                raise SourceError(
                    Problem(directive.where, f"{rel} {doubt} in this build; its evidence cannot be shown")
                )
            if doubt == SCENARIO_CHANGED:
                raise SourceError(
                    Problem(
                        directive.where,
                        f"{scenario.name}/scenario.yaml changed after it was verified; its evidence cannot be shown",
                        ("run `nox -s docs`, which verifies every example before building",),
                    )
                )
    return scenario


@dataclass(frozen=True)
class ReaderRun:
    """How a reader runs one run: its ``name``, its ``program``'s file name, ``command``, the
    command line the build ran it with (``python resume.py ask-fa3ca410e7 staging``), and
    ``try_command``, the one that runs it from a clone and prints its output
    (:func:`~verified_docs.reader_commands.try_command`)."""

    name: str
    program: str
    command: str
    try_command: str


def reader_runs(scenario: Scenario) -> tuple[ReaderRun, ...]:
    """One :class:`ReaderRun` per program of each run of ``scenario``, in run order."""
    out = []
    for run in scenario.runs:
        for program in run.programs.values():
            command = " ".join(["python", program.path.name, *(shlex.quote(a) for a in run.args)])
            out.append(ReaderRun(run.name, program.path.name, command, try_command(scenario.name, run.name)))
    return tuple(out)


def scenario_files(scenario: Scenario) -> tuple[str, ...]:
    """The file names a reader's copy needs side by side: every program and support file."""
    names = {p.path.name for run in scenario.runs for p in run.programs.values()}
    names |= {p.path.name for p in scenario.support}
    return tuple(sorted(names))
