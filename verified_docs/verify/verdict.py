"""The verdict of one run: run one program against its own mock model, then check what it did.

The verdict gathers every problem: the mock's (unexpected requests, unused steps), the exit
code, the section markers, the evidence and the golden output; it also keeps what the page
and the cache need (output, line coverage, the run's story, imports, sleeps).
:mod:`verified_docs.verify.scenarios` runs a scenario's runs in order, and scenarios side by side.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from verified_docs.errors import Problem, SourceError, display_path
from verified_docs.run import forkserver, line_coverage
from verified_docs.run.languages import LANGUAGES, Language, environment, read_trace, worker_environment
from verified_docs.run.mock_model import MockModel
from verified_docs.run.process import Completed, run_process
from verified_docs.scenario.records import Program, Run, Scenario
from verified_docs.scenario.sections import parse_sections
from verified_docs.verify import golden, replies, timeline
from verified_docs.verify.crash import crash_site
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
    seconds, summed (counted by the tracer, not timed; ``None`` for an untraced language);
    ``names`` maps the real path of the program and of each support file it loaded to the global
    names there bound to a toolnexus module, class or function at exit, each with the object's
    qualified name (``{"Answer": "toolnexus.types.Answer"}``), as the tracer saw them in any of
    the run's processes."""

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
    names: dict[str, dict[str, str]] = field(default_factory=dict)

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


def section_problems(path: Path) -> list[Problem]:
    """Malformed section markers in a program or support file (unclosed, duplicated, stray)."""
    try:
        parse_sections(path)
    except SourceError as e:
        return list(e.problems)
    return []


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
    raises for a failing program; ``python -m verified_docs try`` reaches it through the same
    verify stage as the build, so a reader sees exactly what the build saw."""
    language = LANGUAGES[program.language]
    missing = language.missing_toolchain()
    if missing:
        return _unrun(scenario, run, program, missing, 0.0)
    trace_path = workdir / f".trace-{run.name}.jsonl"
    # The reply pass only compares where replies travel; its lines are never read.
    measure = language.traced and not reply_swap
    coverage = (workdir / f".coverage-{run.name}", _own_files(scenario, program.language)) if measure else None
    start = time.monotonic()
    try:
        done, mock = _execute(language, program, run, workdir, trace_path, coverage, reply_swap, warm)
    except forkserver.ForkServerError as e:
        return _unrun(scenario, run, program, str(e), time.monotonic() - start)
    obs = _observation(run, done, mock, trace_path, language.traced)
    problems = _problems(scenario.folder, run, program, obs, mock, reply_swap)
    # A flooded run's output is cut off: comparing it would only repeat the flood problem.
    # A variant's drift names no rewrite: update-outputs cannot fix an output that ignores the swap.
    fix_with = None if variant else scenario.name
    drift = (
        []
        if done.flooded or reply_swap
        else golden.compare(program.golden_path, done.stdout, variant or {}, scenario=fix_with)
    )
    only_drift = bool(drift) and not problems
    if only_drift and update_outputs:
        _rewrite_golden(program, done.stdout)
        drift = []
    lines = line_coverage.collect(*coverage) if coverage else {}
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
        names=_names(obs),
    )


def _names(obs: Observation) -> dict[str, dict[str, str]]:
    """The ``names`` events of every process of the run, merged by file (see :class:`RunVerdict`)."""
    out: dict[str, dict[str, str]] = {}
    for e in obs.trace:
        if e["event"] == "names":
            for file, names in e["files"].items():
                out.setdefault(file, {}).update(names)
    return out


def _unrun(scenario: Scenario, run: Run, program: Program, why: str, duration_s: float) -> RunVerdict:
    """The verdict of a program that could not start: ``why``, at the run's line."""
    return RunVerdict(scenario, run, program.language, program, (Problem(run.where, why),), "", duration_s)


def _observation(run: Run, done: Completed, mock: MockModel, trace_path: Path, traced: bool) -> Observation:
    """What the finished run left behind: its process's outcome, the mock's requests, the trace."""
    return Observation(
        exit_code=done.exit_code,
        timed_out=done.timed_out,
        timeout_s=run.timeout_s,
        stdout=done.stdout,
        stderr=done.stderr,
        requests=tuple(mock.chat_requests()),
        trace=tuple(read_trace(trace_path)),
        traced=traced,
        flooded=done.flooded,
        not_utf8=done.not_utf8,
        anomaly=done.anomaly,
    )


def _problems(
    folder: Path, run: Run, program: Program, obs: Observation, mock: MockModel, reply_swap: dict[str, str] | None
) -> list[Problem]:
    """Every problem of the run but its golden output: exit, section markers, the mock's, evidence.
    A failed exit is reported at the innermost line of the scenario's own files (``folder``)
    that its traceback passes, a support module's too, with the exception and the callers
    (:func:`~verified_docs.verify.crash.crash_site`)."""
    site = crash_site(folder, program.path, obs.stderr, obs.timed_out)
    problems = check_exit(run.expect, obs, site.where, site.details())
    problems += section_problems(program.path)
    problems += mock.problems()
    # In the reply pass, text is compared with the first pass (replies.compare), not the golden file.
    problems += check_evidence(replies.structural_expect(run.expect) if reply_swap else run.expect, obs)
    return problems


def _execute(
    language: Language,
    program: Program,
    run: Run,
    workdir: Path,
    trace_path: Path,
    coverage: tuple[Path, list[Path]] | None,
    reply_swap: dict[str, str] | None,
    warm: bool,
) -> tuple[Completed, MockModel]:
    """Run ``program`` with ``run``'s arguments and timeout against a mock model serving ``run``'s
    script, tracing into ``trace_path``, measuring lines into ``coverage`` (data prefix, files)
    when given, with ``reply_swap``'s fresh replies when given. From the warm fork server when
    ``warm`` and the language can fork, else as a process of its own. Returns how the program
    ended and the mock (stopped; it keeps its requests and problems). Raises
    :class:`~verified_docs.run.forkserver.ForkServerError` when the fork server is gone."""
    with MockModel(run.steps, run.where) as mock:
        env = environment(
            base_url=mock.base_url,
            api_key=mock.api_key,
            trace_path=trace_path,
            workdir=workdir,
            timeout_s=run.timeout_s,
        )
        if coverage:
            env.update(line_coverage.environment(*coverage))
        if reply_swap:
            env[replies.SWAP_ENV] = json.dumps(reply_swap)
        if warm and language.forkable:
            done = forkserver.shared(worker_environment()).run(
                program.path, run.args, cwd=workdir, env=env, timeout_s=run.timeout_s
            )
        else:
            done = run_process(language.command(program.path, run.args), cwd=workdir, env=env, timeout_s=run.timeout_s)
    return done, mock


def _rewrite_golden(program: Program, stdout: str) -> None:
    """``update-outputs``: make ``stdout`` the program's golden output (atomically; an
    equivalent file is left as it is)."""
    if golden.write_if_changed(program.golden_path, stdout):
        # One line per rewrite as it happens: what a reader (or a kill test) can wait for.
        print(f"updated {display_path(program.golden_path)}", flush=True)


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
