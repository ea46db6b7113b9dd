"""``python -m verified_docs try``: run one example offline, or serve its scripted model.

A reader reproduces a page's output with one command: the example's runs (up to the chosen
one) go through the build's own verify stage, :func:`verified_docs.verify_stage.verify_and_record`,
exactly as the build verifies them (the same mock model script, environment, arguments,
shared working directory and checks, the variants and the reply pass included; no result
cache, no ledger written), and what each shown run's program printed goes to stdout
unchanged. Notes (which run, whether the output equals the golden file) go to stderr once
the runs are done, so ``try ... > out.txt`` holds nothing but the programs' output.

With ``serve``, only the scripted model of one run starts; the reader points an edited copy
of the program at it through ``OPENAI_BASE_URL`` and ``OPENAI_API_KEY``, the two variables
every snippet reads (:func:`verified_docs.run.languages.environment` sets them for the build).
"""

from __future__ import annotations

import shlex
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO, TextIO

from verified_docs.errors import Location, SourceError, UsageError
from verified_docs.run.languages import LANGUAGES
from verified_docs.run.mock_model import MockModel, RecordedRequest
from verified_docs.scenario.load import find_scenario
from verified_docs.scenario.records import Program, Run, Scenario
from verified_docs.verify_stage import verify_and_record

BASE_URL_VAR, API_KEY_VAR = "OPENAI_BASE_URL", "OPENAI_API_KEY"


@dataclass(frozen=True)
class Choice:
    """What to try: ``scenario``, and ``run`` (``None``: every run, in order)."""

    scenario: Scenario
    run: Run | None


def choose(scenarios: list[Scenario], name: str, run_name: str | None = None) -> Choice:
    """The scenario called ``name`` (``suspension/answer-later``, or just ``answer-later``
    when only one scenario has that last part) and its run ``run_name``.

    Raises :class:`UsageError` for an unknown scenario or run, naming the valid ones."""
    by_name = {s.name: s for s in scenarios}
    short = [s.name for s in scenarios if s.name.rsplit("/", 1)[-1] == name]
    full = short[0] if name not in by_name and len(short) == 1 else name
    try:
        scenario = find_scenario(by_name, full, Location(Path("<command line>")))
    except SourceError as e:
        # One line, as every message of this command: where the name came from goes without saying.
        hint = "" if by_name else "; run it from the site's repository folder (the one with snippets/ and mkdocs.yml)"
        (p,) = e.problems
        raise UsageError("; ".join((p.what, *p.details)) + hint) from None
    if run_name is None:
        return Choice(scenario, None)
    for run in scenario.runs:
        if run.name == run_name:
            return Choice(scenario, run)
    raise UsageError(
        f"scenario {scenario.name!r} has no run {run_name!r}; its runs: {', '.join(r.name for r in scenario.runs)}"
    )


def _program(run: Run) -> Program | None:
    """The run's program in the first language (in :data:`LANGUAGES` order) it has one in."""
    return next((run.programs[lang] for lang in LANGUAGES if lang in run.programs), None)


def _command(program: Program, run: Run, root: Path) -> str:
    return shlex.join(["python", _rel(program.path, root), *run.args])


def _rel(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


def run_example(choice: Choice, root: Path, out: BinaryIO, err: TextIO) -> int:
    """Verify ``choice``'s scenario, cut to its runs up to the chosen one (every run when none
    is chosen), through the build's verify stage (:func:`~verified_docs.verify_stage.verify_and_record`:
    the runs in order in one fresh temporary folder, then the variants and the reply pass; no
    result cache, no ledger written), and write each shown run's output to ``out`` byte for
    byte (as UTF-8); with a run chosen, the runs before it run first (they prepare the shared
    folder) and only the chosen one's output is written.

    Returns 0 when every run passed the build's checks, 1 when one failed (its report goes to
    ``err``; the output of the runs after it is not written)."""
    scenario = choice.scenario
    last = scenario.runs.index(choice.run) if choice.run else len(scenario.runs) - 1
    # One language: that of the last run's program (the first in LANGUAGES order it has one in);
    # the runs before it run in the same one, as the build runs each language's runs in order.
    last_program = _program(scenario.runs[last])
    if last_program is None:  # the schema gives every run a program
        return 0
    cut = replace(scenario, runs=scenario.runs[: last + 1])
    languages = (last_program.language,)
    verified = verify_and_record(root, [cut], languages, cache=None, ledger_path=None, jobs=1, warm=False)
    for verdict in verified.by_scenario[cut.name]:
        run, program = verdict.run, verdict.program
        shown = choice.run is None or run.name == choice.run.name
        if shown:
            _note(err, f"run {run.name!r}: {_command(program, run, root)}")
            out.write(verdict.stdout.encode("utf-8"))
            out.flush()
        else:
            _note(
                err,
                f"run {run.name!r} first, its output not shown (the runs share one working "
                f"directory): {_command(program, run, root)}",
            )
        if not verdict.passed:
            err.write(verdict.report() + "\n")
            return 1
        if shown:
            _note(err, _golden_note(program.golden_path, verdict.stdout, root))
    return 0


def _golden_note(golden: Path, stdout: str, root: Path) -> str:
    if golden.read_bytes() == stdout.encode("utf-8"):
        return f"the same bytes as {_rel(golden, root)}, its golden output (what a page shows of this run)"
    # It passed, so the outputs are equal once generated ids, ports, keys and durations are
    # set aside (verified_docs.verify.normalise); the page shows the build's values.
    return (
        f"the same as {_rel(golden, root)}, its golden output (what a page shows of this run), "
        "except for generated ids, ports or durations, which differ on every run"
    )


def serve(
    choice: Choice,
    root: Path,
    out: TextIO,
    err: TextIO,
    *,
    port: int = 0,
    stop: threading.Event | None = None,
    poll_s: float = 0.2,
) -> int:
    """Serve the scripted model of ``choice.run`` on 127.0.0.1 (``port``; 0 = a free one),
    print ``export OPENAI_BASE_URL=...`` and ``export OPENAI_API_KEY=...`` to ``out``, then
    report each request the model receives to ``err`` until ``stop`` is set or Ctrl-C.

    Raises :class:`UsageError` when no run is chosen and the scenario has several, or when
    ``port`` is taken. Returns 0."""
    scenario, run = choice.scenario, choice.run
    if run is None:
        if len(scenario.runs) > 1:
            raise UsageError(
                f"scenario {scenario.name!r} has several runs, each with its own script; choose one "
                f"with --run: {', '.join(r.name for r in scenario.runs)}"
            )
        run = scenario.runs[0]
    try:
        mock = MockModel(run.steps, run.where, port=port).__enter__()
    except OSError as e:
        raise UsageError(f"cannot serve on 127.0.0.1:{port}: {e.strerror or e}") from None
    try:
        out.write(f"export {BASE_URL_VAR}={mock.base_url}\nexport {API_KEY_VAR}={mock.api_key}\n")
        out.flush()
        for line in _serve_notes(scenario, run, root):
            _note(err, line)
        _watch(mock, err, stop or threading.Event(), poll_s)
    finally:
        mock.__exit__(None, None, None)
    return 0


def _serve_notes(scenario: Scenario, run: Run, root: Path) -> list[str]:
    program = _program(run)
    steps = len(run.steps)
    script = (
        f"{steps} scripted repl{'y' if steps == 1 else 'ies'}; it answers one pass of the run"
        if steps
        else "no scripted reply: this run makes no model request, and the model refuses any"
    )
    notes = [f"serving the scripted model of {scenario.name}, run {run.name!r} ({script})"]
    if program is not None:
        command = shlex.join(["python", program.path.name, *run.args])
        notes.append(
            f"set the two variables above, then run your copy of {_rel(program.path, root)} with the "
            f"build's arguments: {command}"
        )
    support = sorted({p.path.name for p in scenario.support})
    if support:
        notes.append(f"keep its support file(s) next to it: {', '.join(support)}")
    earlier = [r.name for r in scenario.runs[: scenario.runs.index(run)]]
    if earlier:
        notes.append(
            f"run it in the folder where {', '.join(earlier)} ran first (the runs share one working "
            f"directory; serve each with --run)"
        )
    notes.append("Ctrl-C stops it")
    return notes


def _watch(mock: MockModel, err: TextIO, stop: threading.Event, poll_s: float) -> None:
    """Report new requests until ``stop`` or Ctrl-C; then say how far the script got."""
    seen, done_said, stopped = 0, False, False
    while True:
        try:
            stopped = stop.wait(poll_s)
        except KeyboardInterrupt:
            stopped = True
        requests = list(mock.requests)  # what arrived, stop or not, is reported
        for r in requests[seen:]:
            _note(err, _describe(r, mock))
        seen = len(requests)
        used = sum(1 for r in requests if r.step is not None)
        if used and used == len(mock.steps) and not done_said:
            _note(
                err,
                "every scripted reply has been given: the run is complete; a second pass needs a fresh `try --serve`",
            )
            done_said = True
        if stopped:
            break
    used = sum(1 for r in mock.requests if r.step is not None)
    _note(err, f"stopped after {len(mock.requests)} request(s); {used} of {len(mock.steps)} scripted replies given")


def _describe(r: RecordedRequest, mock: MockModel) -> str:
    if r.step is not None:
        return (
            f"request {r.index + 1}: answered with scripted reply {r.step + 1} of {len(mock.steps)} "
            f"({mock.steps[r.step].describe()})"
        )
    return f"request {r.index + 1}: refused with HTTP {r.status}: {r.error}"


def _note(err: TextIO, text: str) -> None:
    err.write(f"try: {text}\n")
    err.flush()
