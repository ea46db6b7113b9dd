"""Run every program of a scenario against its own mock model and give a verdict per run.

For each language, the scenario's runs execute in order in one fresh temporary working
directory (so phase 2 finds what phase 1 parked). Each run gets its own mock model with its
own script. The verdict gathers every problem: the mock's (unexpected requests, unused steps),
the exit code, the evidence, and the golden output.
"""
from __future__ import annotations

import re
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from . import golden
from .errors import Location, Problem
from .evidence import Observation, check_evidence, check_exit
from .mock_model import MockModel
from .runner.languages import LANGUAGES, environment, read_trace
from .runner.process import run_process
from .scenario import Program, Run, Scenario


@dataclass(frozen=True)
class RunVerdict:
    """The outcome of one run of one scenario in one language. ``passed`` iff no problems.
    ``only_output_drifted`` is True when the golden comparison is the only failure (the case
    ``update-outputs`` may fix). ``duration_s`` is the program's wall time in seconds."""

    scenario: Scenario
    run: Run
    language: str
    program: Program
    problems: tuple[Problem, ...]
    stdout: str
    duration_s: float
    only_output_drifted: bool = False

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


def _crash_location(program: Path, stderr: str) -> Location:
    """The deepest traceback frame inside ``program`` (Python), else the program's first line."""
    frames = re.findall(r'File "([^"]+)", line (\d+)', stderr)
    for file_name, line in reversed(frames):
        if Path(file_name).resolve() == program.resolve():
            return Location(program, int(line))
    return Location(program, 1)


def verify_scenario(scenario: Scenario, languages: tuple[str, ...] | None = None, *,
                    update_outputs: bool = False) -> list[RunVerdict]:
    """Verify every run of ``scenario`` in each of ``languages`` (default: all it has).

    With ``update_outputs``, a run whose only problem is drifted output has its golden file
    rewritten (atomically) and then counts as passed. Never raises for a failing example; the
    problems are in the verdicts.
    """
    verdicts: list[RunVerdict] = []
    for lang in languages or scenario.languages:
        if lang not in scenario.languages:
            continue
        language = LANGUAGES[lang]
        with tempfile.TemporaryDirectory(prefix="verified-docs-") as tmp:
            workdir = Path(tmp)
            earlier_failed: str | None = None
            for run in scenario.runs:
                program = run.programs.get(lang)
                if program is None:
                    continue
                if earlier_failed:
                    verdicts.append(RunVerdict(scenario, run, lang, program, (Problem(
                        run.where, f"not run: the earlier run '{earlier_failed}' failed"),), "", 0.0))
                    continue
                verdict = _verify_run(scenario, run, program, workdir, update_outputs)
                verdicts.append(verdict)
                if not verdict.passed:
                    earlier_failed = run.name
    return verdicts


def _verify_run(scenario: Scenario, run: Run, program: Program, workdir: Path, update_outputs: bool) -> RunVerdict:
    language = LANGUAGES[program.language]
    missing = language.missing_toolchain()
    if missing:
        return RunVerdict(scenario, run, program.language, program, (Problem(run.where, missing),), "", 0.0)
    trace_path = workdir / f".trace-{run.name}.jsonl"
    start = time.monotonic()
    with MockModel(run.steps, run.where) as mock:
        env = environment(base_url=mock.base_url, api_key=mock.api_key, trace_path=trace_path, workdir=workdir)
        done = run_process(language.command(program.path, run.args), cwd=workdir, env=env, timeout_s=run.timeout_s)
    duration = time.monotonic() - start
    obs = Observation(
        exit_code=done.exit_code, timed_out=done.timed_out, timeout_s=run.timeout_s, stdout=done.stdout,
        stderr=done.stderr, requests=tuple(mock.chat_requests()), trace=tuple(read_trace(trace_path)),
        traced=language.traced, truncated=done.truncated,
    )
    problems = check_exit(run.expect, obs, _crash_location(program.path, done.stderr))
    problems += mock.problems()
    problems += check_evidence(run.expect, obs)
    drift = golden.compare(program.golden_path, done.stdout)
    only_drift = bool(drift) and not problems
    if only_drift and update_outputs:
        golden.write_if_changed(program.golden_path, done.stdout)
        drift = []
    return RunVerdict(scenario, run, program.language, program, tuple(problems + drift), done.stdout,
                      duration, only_output_drifted=only_drift)
