"""Verify whole scenarios: each run in order, per language, then again with the values varied.

For each language, the scenario's runs execute in order in one fresh temporary working
directory (so phase 2 finds what phase 1 parked); each run gets its own mock model with its
own script (:func:`~verified_docs.verify.verdict.verify_run`). When every run passed, the
scenario runs again once per declared variant and once with every delivered reply swapped for
a fresh value, and those passes' problems join the same run's verdict. :func:`verify_all`
verifies many scenarios side by side.
"""

from __future__ import annotations

import json
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

from verified_docs.errors import Problem
from verified_docs.scenario.records import Scenario
from verified_docs.verify import replies
from verified_docs.verify.verdict import RunVerdict, section_problems, verify_run


def verify_scenario(
    scenario: Scenario, languages: tuple[str, ...] | None = None, *, update_outputs: bool = False, warm: bool = True
) -> list[RunVerdict]:
    """Verify every run of ``scenario`` in each of ``languages`` (default: all it has), then
    again once per declared variant (the same scenario with some values swapped), so a
    snippet that prints a hard-coded reply instead of the one it was given fails.

    With ``update_outputs``, a run whose only problem is drifted output has its golden file
    rewritten (atomically) and then counts as passed. With ``warm`` (the default), Python
    programs start from the warm fork server instead of a cold interpreter each. Never raises
    for a failing example; the problems are in the verdicts (a variant's problems join the same
    run's verdict).
    """
    verdicts: list[RunVerdict] = []
    for lang in languages or scenario.languages:
        if lang not in scenario.languages:
            continue
        mine = _sleep_limit(scenario, _verify_language(scenario, lang, {}, update_outputs, warm))
        for mapping in scenario.variants:
            if not all(v.passed for v in mine):
                break
            label = ", ".join(f"{a!r} -> {b!r}" for a, b in mapping.items())
            varied = _verify_language(apply_variant(scenario, mapping), lang, mapping, False, warm)
            mine = [_with_variant(v, w, label) for v, w in zip(mine, varied, strict=True)]
        if all(v.passed for v in mine):
            mine = _reply_pass(scenario, lang, mine, warm)
        verdicts += mine
    return verdicts


# Time-dependent examples wait on events and the library's own short limits, not on the clock:
# a scenario's runs may ask for this many seconds of sleep in all.
SLEEP_LIMIT_S = 0.2


def _sleep_limit(scenario: Scenario, mine: list[RunVerdict]) -> list[RunVerdict]:
    """``mine`` (one language's runs, first pass) with a problem on the last verdict when their
    sleeps add up to more than :data:`SLEEP_LIMIT_S` seconds, at the ``scenario.yaml`` line of
    the run that sleeps longest."""
    slept = [(v, v.slept_s) for v in mine if v.slept_s]
    total = round(sum(seconds for _, seconds in slept), 6)
    if total <= SLEEP_LIMIT_S:
        return mine
    longest = max(slept, key=lambda pair: pair[1])[0]
    runs = ", ".join(f"{v.run.name} {seconds:g} s" for v, seconds in slept)
    problem = Problem(
        longest.run.where,
        f"its runs sleep {total:g} s in all ({runs}; time.sleep and asyncio.sleep, in the "
        f"programs and in toolnexus); a scenario may sleep {SLEEP_LIMIT_S:g} s at most: wait "
        "on an event, or give the library's own limit a short value",
    )
    last = mine[-1]
    return mine[:-1] + [replace(last, problems=last.problems + (problem,), only_output_drifted=False)]


def _reply_pass(scenario: Scenario, lang: str, mine: list[RunVerdict], warm: bool) -> list[RunVerdict]:
    """Run the scenario once more with every reply a tool received swapped for a fresh value
    (:mod:`verified_docs.verify.replies`), and add to each run's verdict where the fresh value did not travel as
    the reply did. No replies (no Answer with string data reached a tool): nothing to do."""
    found: list[str] = []
    for v in mine:
        for r in v.reply_trace.replies if v.reply_trace else ():
            if r not in found:
                found.append(r)
    if not found:
        return mine
    mapping = replies.fresh_values(found)
    varied = _verify_language(scenario, lang, {}, False, warm, reply_swap=mapping)
    out = []
    for v, w in zip(mine, varied, strict=True):
        problems = [
            Problem(p.where, f"with the replies replaced by fresh values: {p.what}", p.details) for p in w.problems
        ]
        if v.reply_trace and w.reply_trace:
            problems += replies.compare(v.reply_trace, w.reply_trace, mapping, scenario.replies_unseen, v.run.where)
        own = None if v.own_s is None or w.own_s is None else v.own_s + w.own_s
        out.append(
            replace(
                v,
                problems=v.problems + tuple(problems),
                duration_s=v.duration_s + w.duration_s,
                own_s=own,
                only_output_drifted=v.only_output_drifted and not problems,
            )
        )
    return out


def _with_variant(main: RunVerdict, variant: RunVerdict, label: str) -> RunVerdict:
    """``main`` with the variant's problems (labelled) and its time added: a variant re-run is
    part of verifying the run."""
    own = None if main.own_s is None or variant.own_s is None else main.own_s + variant.own_s
    merged = replace(main, duration_s=main.duration_s + variant.duration_s, own_s=own)
    if variant.passed:
        return merged
    return replace(
        merged,
        only_output_drifted=False,
        problems=tuple(Problem(p.where, f"in the variant {label}: {p.what}", p.details) for p in variant.problems),
    )


def default_jobs() -> int:
    """Scenarios verified at once by default: two per CPU core. A scenario's thread spends most
    of its time waiting, on its program and on what that program waits for (the mock model, a
    server it starts, a library timeout), so one per core leaves the cores half idle."""
    return 2 * (os.cpu_count() or 1)


def verify_all(
    scenarios: list[Scenario],
    languages: tuple[str, ...] | None = None,
    *,
    update_outputs: bool = False,
    jobs: int | None = None,
    warm: bool = True,
    estimates: dict[str, float] | None = None,
) -> dict[str, list[RunVerdict]]:
    """Verify ``scenarios`` concurrently, ``jobs`` at a time (default: :func:`default_jobs`).

    Scenarios share nothing (each run has its own mock model, port and working directory), so
    they run side by side; a scenario's own runs stay in order. ``estimates`` (seconds by
    scenario name, e.g. from the last ledger) start the longest first. Returns verdicts by
    scenario name, in the order given.
    """
    workers = max(1, jobs or default_jobs())
    # Longest first, so the slowest scenario does not start last and finish alone.
    order = sorted(scenarios, key=lambda s: -(estimates or {}).get(s.name, 0.0))
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="verify") as pool:
        futures = {
            s.name: pool.submit(verify_scenario, s, languages, update_outputs=update_outputs, warm=warm) for s in order
        }
        return {s.name: futures[s.name].result() for s in scenarios}


def apply_variant(scenario: Scenario, mapping: dict[str, str]) -> Scenario:
    """``scenario`` with each key of ``mapping`` replaced by its value in the runs' arguments,
    the model's scripted steps and every textual evidence item."""

    def swap(text: str) -> str:
        for old, new in mapping.items():
            text = text.replace(old, new)
        return text

    def swap_data(value: Any) -> Any:
        return json.loads(swap(json.dumps(value)))

    runs = []
    for run in scenario.runs:
        steps = tuple(
            replace(
                st,
                reply=swap(st.reply) if st.reply is not None else None,
                say=swap(st.say) if st.say is not None else None,
                calls=tuple(replace(c, arguments=swap_data(c.arguments)) for c in st.calls),
            )
            for st in run.steps
        )
        e = run.expect
        expect = replace(
            e,
            tool_results_shown=tuple(swap(x) for x in e.tool_results_shown)
            if e.tool_results_shown is not None
            else None,
            tool_answers=tuple(swap_data(list(e.tool_answers))) if e.tool_answers is not None else None,
            requests_raised=tuple(swap_data(list(e.requests_raised))) if e.requests_raised is not None else None,
            stdout_contains=tuple(swap(x) for x in e.stdout_contains),
        )
        runs.append(replace(run, args=tuple(swap(a) for a in run.args), steps=steps, expect=expect))
    return replace(scenario, runs=tuple(runs))


def _verify_language(
    scenario: Scenario,
    lang: str,
    variant: dict[str, str],
    update_outputs: bool,
    warm: bool,
    reply_swap: dict[str, str] | None = None,
) -> list[RunVerdict]:
    verdicts: list[RunVerdict] = []
    with tempfile.TemporaryDirectory(prefix="verified-docs-") as tmp:
        workdir = Path(tmp)
        earlier_failed: str | None = None
        for run in scenario.runs:
            program = run.programs.get(lang)
            if program is None:
                continue
            if earlier_failed:
                verdicts.append(
                    RunVerdict(
                        scenario,
                        run,
                        lang,
                        program,
                        (Problem(run.where, f"not run: the earlier run '{earlier_failed}' failed"),),
                        "",
                        0.0,
                    )
                )
                continue
            verdict = verify_run(
                scenario,
                run,
                program,
                workdir,
                update_outputs=update_outputs,
                variant=variant,
                warm=warm,
                reply_swap=reply_swap,
            )
            verdicts.append(verdict)
            if not verdict.passed:
                earlier_failed = run.name
        support = [p for s in scenario.support if s.language == lang for p in section_problems(s.path)]
        if support and verdicts:
            last = verdicts[-1]
            verdicts[-1] = replace(last, problems=last.problems + tuple(support), only_output_drifted=False)
    return verdicts
