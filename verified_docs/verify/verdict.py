"""Run every program of a scenario against its own mock model and give a verdict per run.

For each language, the scenario's runs execute in order in one fresh temporary working
directory (so phase 2 finds what phase 1 parked). Each run gets its own mock model with its
own script. The verdict gathers every problem: the mock's (unexpected requests, unused steps),
the exit code, the evidence, and the golden output.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from verified_docs.errors import Location, Problem, SourceError, display_path
from verified_docs.run import forkserver, line_coverage
from verified_docs.run.languages import LANGUAGES, environment, read_trace, worker_environment
from verified_docs.run.mock_model import MockModel
from verified_docs.run.process import run_process
from verified_docs.scenario.load import Program, Run, Scenario
from verified_docs.scenario.sections import parse_sections
from verified_docs.verify import golden, replies, timeline
from verified_docs.verify.evidence import Observation, check_evidence, check_exit, tool_results_shown


@dataclass(frozen=True)
class RunVerdict:
    """The outcome of one run of one scenario in one language. ``passed`` iff no problems.
    ``only_output_drifted`` is True when the golden comparison is the only failure (the case
    ``update-outputs`` may fix). ``duration_s`` is the run's wall time in seconds, from starting
    its mock model to its last check (its variant and reply-pass re-runs included); ``own_s`` is
    the programs' own part of it (first line to exit, each pass) when the starter can tell, else
    ``None``; ``imports``
    are the files of modules it (or a process it started) loaded from outside the interpreter's
    own folders, as the tracer saw them at exit; ``lines`` maps the real path of each of the
    scenario's files in this language (programs and support files) to the lines coverage.py
    saw run in this run's processes; ``story`` is what happened, in order, as recorded by the
    mock model and the tracer (:func:`~verified_docs.verify.timeline.timeline`), the messages its diagram draws;
    ``slept_s`` is what its processes asked ``time.sleep`` and ``asyncio.sleep`` for, in
    seconds, summed (counted by the tracer, not timed; ``None`` for an untraced language)."""

    scenario: Scenario
    run: Run
    language: str
    program: Program
    problems: tuple[Problem, ...]
    stdout: str
    duration_s: float
    only_output_drifted: bool = False
    own_s: float | None = None
    imports: tuple[str, ...] = ()
    lines: dict[str, line_coverage.FileLines] = field(default_factory=dict)
    story: tuple[timeline.Message, ...] = ()
    reply_trace: replies.ReplyTrace | None = field(default=None, compare=False)
    slept_s: float | None = None

    @property
    def passed(self) -> bool:
        return not self.problems

    @property
    def test_id(self) -> str:
        return f"{self.scenario.name}/{self.run.name}[{self.language}]"

    def report(self) -> str:
        """A multi-line failure report: which run, then every problem."""
        head = f"{self.test_id}: {len(self.problems)} problem(s) running {self.program.path.name}"
        return "\n".join([head, *(str(p) for p in self.problems)])


def _crash_location(program: Path, stderr: str, timed_out: bool) -> Location:
    """Where the program failed: the innermost stack frame inside ``program``, else its first
    line. A Python traceback lists the innermost frame last; faulthandler's dump before a
    timeout kill lists it first."""
    frames = re.findall(r'File "([^"]+)", line (\d+)', stderr)
    for file_name, line in frames if timed_out else reversed(frames):
        if Path(file_name).resolve() == program.resolve():
            return Location(program, int(line))
    return Location(program, 1)


def _section_problems(path: Path) -> list[Problem]:
    """Malformed section markers in a program or support file (unclosed, duplicated, stray)."""
    try:
        parse_sections(path)
    except SourceError as e:
        return list(e.problems)
    return []


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
            mine = [_with_variant(v, w, label) for v, w in zip(mine, varied)]
        if all(v.passed for v in mine):
            mine = _reply_pass(scenario, lang, mine, warm)
        verdicts += mine
    return verdicts


# Time-dependent examples wait on events and the library's own short limits, not on the clock:
# a scenario's runs may ask for this many seconds of sleep in all (issue 13's bound).
SLEEP_LIMIT_S = 0.2


def _sleep_limit(scenario: Scenario, mine: list[RunVerdict]) -> list[RunVerdict]:
    """``mine`` (one language's runs, first pass) with a problem on the last verdict when their
    sleeps add up to more than :data:`SLEEP_LIMIT_S` seconds, at the ``scenario.yaml`` line of
    the run that sleeps longest."""
    slept = [v for v in mine if v.slept_s]
    total = round(sum(v.slept_s for v in slept), 6)
    if total <= SLEEP_LIMIT_S:
        return mine
    longest = max(slept, key=lambda v: v.slept_s)
    runs = ", ".join(f"{v.run.name} {v.slept_s:g} s" for v in slept)
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
    for v, w in zip(mine, varied):
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
    server it starts, a library timeout), so one per core left the cores half idle: on 2 cores
    the 35 scenarios of issue 13 took 12.1 s at 2 at once and 7.7 s at 4, every run green, and
    still green with a second build beside it (15 s)."""
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

    def swap_data(value):
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
        support = [p for s in scenario.support if s.language == lang for p in _section_problems(s.path)]
        if support and verdicts:
            last = verdicts[-1]
            verdicts[-1] = replace(last, problems=last.problems + tuple(support), only_output_drifted=False)
    return verdicts


def verify_run(
    scenario: Scenario,
    run: Run,
    program: Program,
    workdir: Path,
    *,
    update_outputs: bool = False,
    variant: dict[str, str] | None = None,
    warm: bool = True,
    reply_swap: dict[str, str] | None = None,
) -> RunVerdict:
    """Run ``program`` (one of ``run``'s) in ``workdir`` against a mock model serving ``run``'s
    script, and check it: exit code, section markers, the mock's problems, the evidence, the
    golden output (with ``variant``'s values swapped in) and line coverage. ``workdir`` is
    shared by a scenario's runs, in order, so a later run finds what an earlier one left.
    ``reply_swap`` (the reply pass) hands the tracer fresh values for the replies. Never
    raises for a failing program; ``python -m verified_docs try`` runs examples through here
    so a reader sees exactly what the build saw."""
    variant = variant or {}
    language = LANGUAGES[program.language]
    missing = language.missing_toolchain()
    if missing:
        return RunVerdict(scenario, run, program.language, program, (Problem(run.where, missing),), "", 0.0)
    trace_path = workdir / f".trace-{run.name}.jsonl"
    coverage_prefix = workdir / f".coverage-{run.name}"
    measured = _own_files(scenario, program.language)
    start = time.monotonic()
    with MockModel(run.steps, run.where) as mock:
        env = environment(
            base_url=mock.base_url,
            api_key=mock.api_key,
            trace_path=trace_path,
            workdir=workdir,
            timeout_s=run.timeout_s,
        )
        # The reply pass only compares where replies travel; its lines are never read.
        measure_lines = language.traced and not reply_swap
        if measure_lines:
            env.update(line_coverage.environment(coverage_prefix, measured))
        if reply_swap:
            env[replies.SWAP_ENV] = json.dumps(reply_swap)
        if warm and language.forkable:
            try:
                done = forkserver.shared(worker_environment()).run(
                    program.path, run.args, cwd=workdir, env=env, timeout_s=run.timeout_s
                )
            except forkserver.ForkServerError as e:
                return RunVerdict(
                    scenario,
                    run,
                    program.language,
                    program,
                    (Problem(run.where, str(e)),),
                    "",
                    time.monotonic() - start,
                )
        else:
            done = run_process(language.command(program.path, run.args), cwd=workdir, env=env, timeout_s=run.timeout_s)
    obs = Observation(
        exit_code=done.exit_code,
        timed_out=done.timed_out,
        timeout_s=run.timeout_s,
        stdout=done.stdout,
        stderr=done.stderr,
        requests=tuple(mock.chat_requests()),
        trace=tuple(read_trace(trace_path)),
        traced=language.traced,
        flooded=done.flooded,
        not_utf8=done.not_utf8,
        anomaly=done.anomaly,
    )
    problems = check_exit(run.expect, obs, _crash_location(program.path, done.stderr, done.timed_out))
    problems += _section_problems(program.path)
    problems += mock.problems()
    # In the reply pass, text is compared with the first pass (replies.compare), not the golden file.
    problems += check_evidence(replies.structural_expect(run.expect) if reply_swap else run.expect, obs)
    # A flooded run's output is cut off: comparing it would only repeat the flood problem.
    drift = [] if done.flooded or reply_swap else golden.compare(program.golden_path, done.stdout, variant)
    only_drift = bool(drift) and not problems
    if only_drift and update_outputs:
        if golden.write_if_changed(program.golden_path, done.stdout):
            # One line per rewrite as it happens: what a reader (or a kill test) can wait for.
            print(f"updated {display_path(program.golden_path)}", flush=True)
        drift = []
    lines = line_coverage.collect(coverage_prefix, measured) if measure_lines else {}
    return RunVerdict(
        scenario,
        run,
        program.language,
        program,
        tuple(problems + drift),
        done.stdout,
        time.monotonic() - start,
        only_output_drifted=only_drift,
        own_s=done.own_s,
        imports=tuple(sorted({f for e in obs.trace if e["event"] == "imports" for f in e["files"]})),
        lines=lines,
        story=_story(obs),
        reply_trace=replies.reply_trace(obs.trace, tool_results_shown(obs.requests), done.stdout),
        slept_s=_slept(obs) if language.traced else None,
    )


def _slept(obs: Observation) -> float:
    """Seconds of sleep the run's processes asked for (the tracer's ``slept`` events)."""
    return round(sum(e["seconds"] for e in obs.trace if e["event"] == "slept"), 6)


def _story(obs: Observation) -> tuple[timeline.Message, ...]:
    """The run's messages in order, from the mock's requests and the tracer's events."""
    requests = [
        {"at": r.at, "body": r.body, "status": r.status, "reply": r.reply, "error": r.error} for r in obs.requests
    ]
    return timeline.timeline(requests, obs.trace)


def _own_files(scenario: Scenario, language: str) -> list[Path]:
    """The scenario's programs and support files in ``language``: the files whose lines a
    page may show, so the files whose executed lines are measured."""
    files = {p.path for run in scenario.runs for p in run.programs.values() if p.language == language}
    files |= {p.path for p in scenario.support if p.language == language}
    return sorted(files)
