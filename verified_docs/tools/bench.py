"""Benchmarks: what the build's checks cost and how long an author waits, as ratios meant to
hold on a shared machine, each printed with its target met or missed.

Two kinds of figure, chosen by the question (:mod:`verified_docs.tools.cputime`):

- **CPU time** (user + system seconds of the process tree, from ``os.wait4`` and
  ``getrusage``) where the question is what a check costs. Load beside the bench makes a process
  wait for a core, which wall time counts and CPU time does not; it does not leave CPU time
  untouched, though. On this 2-core VM a cold ``import toolnexus`` took 0.57 CPU seconds in a
  quiet ``--quick`` run and 0.80 beside a ``nox -s docs -- --force`` loop, and a fixed
  pure-Python loop took 0.156 to 0.187 CPU seconds in five tries within half a minute, with
  nothing else of ours running (2026-12-07): the host runs the cores faster or slower, within seconds
  and over minutes (two quiet runs here gave one pass 13.8 and 11.0 CPU seconds, and two whole
  passes with every check, minutes apart, 22.7 and 34.1). So every CPU figure is taken in
  rounds (:class:`Round`: today's passes, the chapter base's, a cold build and a bare build),
  and within a round the verify passes run in parts, interleaved (:func:`interleaved_passes`:
  part 1 of every pass, then part 2, ...), so that the passes a ratio sets against each other
  see the same host; each ratio is computed within a round, and the bench reports the median
  over rounds. Whole passes one after another were not enough: a quiet ``--quick`` run and one
  beside a ``nox -s docs -- --force`` loop (``--compare``) agreed within 15% on 1 of 6 ratios on
  2026-12-07 (issue 25 DW4). The CPU ratios:

  - *cold docs / budget*: the CPU of a cold ``nox -s docs`` (result caches emptied) against
    what the build cannot avoid spending: a bare ``mkdocs build`` (its hook rendering from the
    ledger) plus every process of a pass that runs each program once, with no truth check (no
    line coverage, no reply pass, no variant), which is the warm worker's one
    ``import toolnexus`` and the programs' own work. The wall-time budget this replaces was
    bare build + cold import + own work / cores; in CPU time the work of all cores adds up, so
    nothing is divided (see :func:`cpu_budget`).
  - *line coverage + reply pass / cold docs without them*: the CPU a pass with them takes over
    the same pass with both patched off, against the cold build's CPU less that difference.
  - *production chapter*: the verify stage's CPU growth since :data:`CHAPTER_BASE` (today's
    scenarios against that revision's, both verified by today's code, every check on) against
    the CPU the added programs take on their own (each program once, no check). The wall-time
    form allowed the growth the added own work divided by the cores, which in CPU time would
    leave the checks nothing; the limit is now the base revision's own cost per second of its
    programs' own work (its full pass / its own-work pass): the chapter's programs may cost the
    verify stage no more per second of their own work than the programs before them did.
  - *no-op docs / bare build*: ``nox -s docs`` with nothing changed against a bare
    ``mkdocs build``, in pairs (the order swapped every other pair), each pair's ratio of CPU
    seconds: each side is one process after another, so its CPU is its wall time when the
    machine is quiet, and CPU does not count the wait for a core that stretched one loaded
    pair's wall times from 14.6 to 28.3 seconds. The wall-time ratio is printed beside it.

- **Paired wall times** where someone waits: the two sides run back to back, the order swapped
  every other pair, and the figure is the median of the pairs' ratios, so load that comes and
  goes stretches both sides of a pair alike:

  - *overhead per program / cold import*: each run's wall time less the program's own (first
    line to exit), averaged over a pass that verifies one scenario at a time (uncontended: it is
    the harness's latency, not waiting for a core), against a cold ``import toolnexus``. Its
    latency is many short hand-overs between processes, each of which waits for a core on a
    loaded machine, so it stretches more than the import does: beside it the bench prints a
    CPU form with no target (this process's CPU per run in the own-work pass, which leaves the
    fork and the tracer out, against the import's CPU);
  - *mock model / bare HTTP server*: wall time per round trip of the mock model against a
    stdlib server that answers one fixed completion, in 16 pairs of short samples, with client
    and servers on one core in a fresh interpreter (:func:`mock_against_bare`). The figure it
    replaces, round trips per CPU second over both cores, gave 2,754 quiet and 4,746 loaded
    (2026-12-07): the lock's hand-overs between two cores moved with what else ran.

- **The author loop** has absolute targets, not a ratio (issue 25): save to reloaded page under
  ``nox -s serve`` (:func:`save_to_reload`, on a copy of the project) for a one-line edit of one
  snippet (at most 1 s) and for a one-line prose edit of one page (at most 2 s), under MkDocs
  and under Zensical, with the pages each save rendered and built again and the render step's
  CPU seconds beside them (counts and CPU that no load changes), and that scenario's own verify
  time.

``nox -s bench`` takes 3 rounds of the CPU figures (medians, min and max) and 3 pairs of each
paired one. ``nox -s bench -- --quick`` (:data:`QUICK`) gives every ratio for about 233 CPU
seconds (measured 2026-12-02), so about 2 to 4 minutes on this 2-core machine when nobody else
uses it (it took 15 minutes at a load average of 11 to 35 from other jobs): one round of the CPU figures, 2 pairs of each paired figure (1 for the author
loop), the overhead pass over every 4th scenario (by name: an even spread of short and long
ones; the overhead is a mean per run), line coverage and the reply pass measured against the
pass without any check (so the variants' small share counts with them: the ratio can only come
out higher than the full bench's), and without the figures no ratio uses (verification from
cold interpreters). ``nox -s
bench -- author-loop [mkdocs|zensical]`` prints only the author loop's figures and targets. ``--json FILE`` also
writes every ratio to FILE, and ``--compare A B`` sets two such files side by side: each
ratio's change, and whether it stays within ±15% (:data:`AGREEMENT`; a quiet run and a run
beside a ``nox -s docs -- --force`` loop must).

Run as ``nox -s bench`` (it needs nox itself to run ``nox -s docs``).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable, Iterator

from verified_docs import ledger
from verified_docs.errors import Location
from verified_docs.files import write_atomic
from verified_docs.run import forkserver
from verified_docs.run.languages import worker_environment
from verified_docs.run.mock_model import MockModel
from verified_docs.run.process import kill_group
from verified_docs.scenario.load import SCENARIO_ROOTS, discover_project, find_scenario
from verified_docs.scenario.records import SCENARIO_FILE, Scenario, Step
from verified_docs.tools import cputime
from verified_docs.verify.scenarios import default_jobs
from verified_docs.verify.verdict import RunVerdict
from verified_docs.verify_stage import Verified, verify_and_record

CACHES = (Path("build") / "cache",)
# `main` just before the production chapter: per second of the added programs' own work, the
# verify stage may grow by no more than that revision's stage cost per second of its own.
CHAPTER_BASE = "17502ea"
# The author loop's edits: one comment line of one snippet's shown section, which its page
# shows, and one line of prose of a page (no claim in its sentence). The snippet's scenario is
# one no `matrix:` claim cites: any edit of its files makes its matrix row stale, and such a
# claim then fails the cycle, as it should.
LOOP_SCENARIO = "suspension/push-the-link-first"


@dataclass(frozen=True)
class LoopEdit:
    """A one-line edit the author loop is timed on: in ``file``, the one ``line`` holding
    ``word`` gets ``(edit i)`` in its place on the i-th save (a text not seen before, so no
    cache answers it; no longer, so a code line stays within 80 characters), which the served
    ``page`` must then show; ``target_s``: the most a save may take."""

    name: str
    file: Path
    line: str
    word: str
    page: str
    target_s: float

    def edited(self, i: int) -> str:
        return self.line.replace(self.word, f"(edit {i})", 1)


LOOP_EDITS = (
    LoopEdit(
        "snippet",
        Path("snippets/suspension/push-the-link-first/push_the_link.py"),
        "    # Stand-in for the user: they open the link and log in a moment later.",
        "a moment",
        "suspension/push-the-link-first/",
        1.0,
    ),
    LoopEdit(
        "prose",
        Path("docs/suspension/approval-gate.md"),
        "A deploy should not happen because a model decided it should. Here the `deploy` tool refuses",
        "decided",
        "suspension/approval-gate/",
        2.0,
    ),
)
# What of the project the author loop's copy needs; build/cache and build/vendor make its first
# cycle warm (that cycle is not timed).
LOOP_COPY = (
    "snippets",
    "examples",
    "rules",
    "docs",
    "verified_docs",
    "mkdocs.yml",
    "pyproject.toml",
    "build/cache",
    "build/vendor",
    "build/verified-ledger.json",
)


@dataclass(frozen=True)
class Plan:
    """How much to measure: ``repeats`` samples of each CPU figure, ``pairs`` pairs of each
    paired wall-time figure (``loop_pairs`` for the author loop), the overhead pass over every
    ``overhead_every``-th scenario, whether to take the "plain" pass (``plain``; without it,
    line coverage and the reply pass are measured against the "own" pass, which leaves the
    variants out too, so their share can only come out higher), and whether to take the figures
    no ratio needs (``extras``: verification from cold interpreters). Each round's verify passes
    run in ``parts`` interleaved parts (:func:`interleaved_passes`)."""

    repeats: int
    pairs: int
    loop_pairs: int
    overhead_every: int
    plain: bool
    extras: bool
    parts: int = 6


# Pairs of mock and bare-server samples (0.125 s each, 4 s in all): three quiet runs of 16 pairs
# gave medians of 1.26 to 1.30 (2026-12-07).
MOCK_PAIRS = 16

FULL = Plan(repeats=3, pairs=3, loop_pairs=3, overhead_every=1, plain=True, extras=True)
QUICK = Plan(repeats=1, pairs=2, loop_pairs=1, overhead_every=4, plain=False, extras=False)


def _nox_docs(root: Path) -> list[str]:
    return [sys.executable, "-m", "nox", "-f", str(root / "noxfile.py"), "-s", "docs"]


def _stats(samples: list[float], unit: str = "s") -> str:
    return (
        f"median {statistics.median(samples):7.3f}{unit}  min {min(samples):7.3f}{unit}  max {max(samples):7.3f}{unit}"
    )


def _verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def mock_round_trips(seconds: float = 2.0) -> tuple[float, float]:
    """Sequential chat-completion round trips over one keep-alive connection, per wall second
    and per CPU second of this process (client and server both run in it)."""
    steps = tuple(Step(Location(Path("bench"), 0), reply="ok") for _ in range(200_000))
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]})
    with MockModel(steps, Location(Path("bench"), 0)) as mock:
        conn = http.client.HTTPConnection("127.0.0.1", mock.port)
        headers = {"Authorization": f"Bearer {mock.api_key}", "Content-Type": "application/json"}
        count = 0
        with cputime.measuring() as meter:
            start = time.perf_counter()
            while time.perf_counter() - start < seconds:
                conn.request("POST", "/v1/chat/completions", body=body, headers=headers)
                conn.getresponse().read()
                count += 1
        conn.close()
    return count / meter.wall_s, count / meter.self_cpu_s


class _BareHandler(BaseHTTPRequestHandler):
    """The least an OpenAI-style server can do: read the request, send one fixed completion. As
    the mock's handler: HTTP/1.1 keep-alive, Nagle's algorithm off."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    reply = json.dumps(
        {
            "id": "c",
            "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}}],
        }
    ).encode("utf-8")

    def do_POST(self) -> None:  # noqa: N802 — http.server's naming
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(self.reply)))
        self.end_headers()
        self.wfile.write(self.reply)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 — quiet
        pass


@contextmanager
def one_core() -> Iterator[None]:
    """This thread on one core for the block (the first it may use), then on those it had; a
    thread started in the block runs on that core too (Linux sets affinity per thread, and a new
    thread inherits its creator's), one started before it does not.
    A client thread and a server thread of one process hand the interpreter lock to each other
    at every request; across two cores that hand-over's cost depends on what else runs (on
    2026-12-07 a quiet run gave 2,754 mock round trips per CPU second and one beside a docs
    loop 4,746), on one core it is a plain thread switch."""
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(allowed)})
    try:
        yield
    finally:
        os.sched_setaffinity(0, allowed)


def _seconds_per_round_trip(port: int, api_key: str, seconds: float) -> float:
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]})
    headers = {"Authorization": f"Bearer {api_key}", "Content-Type": "application/json"}
    conn = http.client.HTTPConnection("127.0.0.1", port)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        conn.request("POST", "/v1/chat/completions", body=body, headers=headers)
        conn.getresponse().read()
        count += 1
    conn.close()
    return (time.perf_counter() - start) / count


def mock_against_bare(pairs: int, seconds: float = 0.125) -> tuple[list[float], list[float], list[float]]:
    """Paired wall microseconds per round trip (:func:`cputime.paired`) on one core
    (:func:`one_core`): the mock model against :class:`_BareHandler` on the same stdlib server,
    each sample ``seconds`` of sequential round trips over one keep-alive connection. Returns
    the mock's samples, the bare server's and each pair's ratio. What the ratio shows: what the
    mock's script, provider rules and recording add to an HTTP exchange, and a stall such as
    Nagle's (40 ms a response) as a ratio in the hundreds. The bench runs it in a fresh
    interpreter (:func:`mock_in_fresh_process`), so that none of its own threads or heap from
    the passes before share the core."""
    steps = tuple(Step(Location(Path("bench"), 0), reply="ok") for _ in range(200_000))
    with one_core(), MockModel(steps, Location(Path("bench"), 0)) as mock:  # pinned first: see one_core
        bare = ThreadingHTTPServer(("127.0.0.1", 0), _BareHandler)
        serving = threading.Thread(target=bare.serve_forever, daemon=True)
        serving.start()
        try:
            return cputime.paired(
                lambda: 1e6 * _seconds_per_round_trip(mock.port, mock.api_key, seconds),
                lambda: 1e6 * _seconds_per_round_trip(bare.server_address[1], "none", seconds),
                pairs,
            )
        finally:
            bare.shutdown()
            bare.server_close()


def mock_in_fresh_process(root: Path, pairs: int) -> tuple[list[float], list[float], list[float]]:
    """:func:`mock_against_bare` in a new interpreter started in ``root``. Raises
    :class:`subprocess.CalledProcessError` when it fails."""
    code = "import json, sys; from verified_docs.tools import bench; print(json.dumps(bench.mock_against_bare(int(sys.argv[1]))))"
    out = subprocess.run([sys.executable, "-c", code, str(pairs)], cwd=root, capture_output=True, text=True, check=True)
    mock_us, bare_us, ratios = json.loads(out.stdout)
    return mock_us, bare_us, ratios


def overhead_per_run(verdicts: list[RunVerdict]) -> float:
    """Seconds each run spends outside the program's own work: the runs' total wall time minus
    the programs' own time (first line to exit), divided by the number of runs."""
    return sum(v.duration_s - (v.own_s or 0.0) for v in verdicts) / len(verdicts)


def scenarios_at(root: Path, rev: str, into: Path) -> list:
    """The scenarios of git revision ``rev`` of the repository at ``root``, extracted under
    ``into`` (``git archive`` of the scenario folders and ``rules/``), each ``since:`` line
    removed. Raises
    :class:`subprocess.CalledProcessError` when git cannot read ``rev``."""
    import io
    import tarfile

    folders = [f for f, _ in SCENARIO_ROOTS] + ["rules"]
    tar = subprocess.run(
        ["git", "-C", str(root), "archive", "--format=tar", rev, *folders], capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
        archive.extractall(into, filter="data")
    # Scenarios once wrote their first release as `since:`; today's loader refuses the line (the
    # release matrix measures it). It decides nothing a run does, so it goes.
    for yaml_file in into.rglob(SCENARIO_FILE):
        text = yaml_file.read_text(encoding="utf-8")
        yaml_file.write_text(re.sub(r"(?m)^since:.*\n", "", text), encoding="utf-8")
    return discover_project(into)


def verify_pass(
    root: Path,
    scenarios: list[Scenario],
    *,
    warm: bool = True,
    jobs: int | None = None,
    estimates: dict[str, float] | None = None,
) -> Verified:
    """One pass of the verify stage over ``scenarios`` (files below ``root``) as ``nox -s docs
    --force`` runs it (:func:`~verified_docs.verify_stage.verify_and_record`: no cache; the
    ledger built but not written), ``jobs`` scenarios at once (default: as the build)."""
    return verify_and_record(root, scenarios, cache=None, ledger_path=None, jobs=jobs, warm=warm, estimates=estimates)


@contextmanager
def _sleep_limit(on: bool) -> Iterator[None]:
    """The scenarios' sleep limit as the build has it (``on``), or lifted: an older revision's
    scenarios may break it without being any slower to verify."""
    from verified_docs.verify import scenarios as verify_mod

    limit = verify_mod.SLEEP_LIMIT_S
    verify_mod.SLEEP_LIMIT_S = limit if on else float("inf")
    try:
        yield
    finally:
        verify_mod.SLEEP_LIMIT_S = limit


@contextmanager
def _checks_off(coverage_and_replies: bool, variants: bool) -> Iterator[Callable[[list[Scenario]], list[Scenario]]]:
    """Patch line coverage and the reply pass off (``coverage_and_replies``), here only: the
    build has no switch for them. Yields what to apply to the scenarios: with ``variants``
    off, each scenario without its variants, so each program runs once."""
    from verified_docs.verify import scenarios as verify_mod
    from verified_docs.verify import verdict as verdict_mod

    real_env, real_pass = verdict_mod.line_coverage.environment, verify_mod._reply_pass
    if coverage_and_replies:
        verdict_mod.line_coverage.environment = lambda data_prefix, files: {}
        verify_mod._reply_pass = lambda scenario, lang, mine, warm: mine
    try:
        yield (lambda scenarios: [replace(s, variants=()) for s in scenarios]) if variants else list
    finally:
        verdict_mod.line_coverage.environment, verify_mod._reply_pass = real_env, real_pass


# What a CPU pass leaves out: "checks" = every check on (as the build); "plain" = line coverage
# and the reply pass off; "own" = those and the variants off (each program runs once).
PASS_KINDS = {"checks": (False, False), "plain": (True, False), "own": (True, True)}


def cpu_pass(
    root: Path, scenarios: list[Scenario], kind: str, *, estimates: dict[str, float], sleep_limit: bool = True
) -> tuple[cputime.Meter, Verified]:
    """CPU time of one verify pass of ``kind`` (:data:`PASS_KINDS`) over ``scenarios``: this
    process's and every process the pass started, the warm worker included (stopped at the end
    of the pass, so that it and its programs have been waited for; a build too starts its
    worker once). ``sleep_limit=False`` lifts the sleep limit (an older revision's scenarios may
    break it). Raises :class:`RuntimeError` when a run fails: a failed run skips the checks
    after it (a timeout under heavy load does), and the CPU figure would drop with it."""
    off, variants_off = PASS_KINDS[kind]
    forkserver.close_shared()  # a worker left from before would not be counted
    with _sleep_limit(sleep_limit), _checks_off(off, variants_off) as prepare:
        chosen = prepare(scenarios)
        with cputime.measuring() as meter:
            got = verify_pass(root, chosen, estimates=estimates)
            forkserver.close_shared()
    if got.failed:
        failed = "; ".join(f"{v.test_id}: {v.problems[0].what if v.problems else '?'}" for v in got.failed)
        raise RuntimeError(
            f"bench needs every run to pass (a failed run skips the checks after it, so its CPU would not "
            f"compare); failed: {failed}. A timeout means the machine is too loaded (load average {_load()}): "
            f"run the bench again when it is quieter; anything else, run `nox -s docs` and fix what it reports"
        )
    return meter, got


def worker_start() -> cputime.Meter:
    """CPU of starting the verify stage's warm worker and stopping it, with no program run: what
    each pass over part of the scenarios adds to the same pass over all of them at once."""
    forkserver.close_shared()
    with cputime.measuring() as meter:
        forkserver.shared(worker_environment()).start()
        forkserver.close_shared()
    return meter


def parts_of(scenarios: list[Scenario], parts: int) -> list[list[Scenario]]:
    """``scenarios`` in ``parts`` parts, every ``parts``-th by name (an even spread of short and
    long ones). Raises ``ValueError`` when a part would be empty: its pass would start no worker,
    and :func:`interleaved_passes` takes one worker start off each part but the first."""
    if not 1 <= parts <= len(scenarios):
        raise ValueError(f"{len(scenarios)} scenarios cannot make {parts} parts, each with one at least")
    ordered = sorted(scenarios, key=lambda s: s.name)
    return [ordered[i::parts] for i in range(parts)]


@dataclass(frozen=True)
class Side:
    """One verify pass of :func:`interleaved_passes`: ``kind`` (:data:`PASS_KINDS`) over
    ``scenarios`` below ``root``; ``sleep_limit`` as :func:`cpu_pass`."""

    name: str
    root: Path
    scenarios: list[Scenario]
    kind: str
    sleep_limit: bool = True


def interleaved_passes(
    sides: list[Side], parts: int, estimates: dict[str, float]
) -> tuple[dict[str, cputime.Meter], dict[str, Verified], cputime.Meter]:
    """Each side's verify pass in ``parts`` parts (:func:`parts_of`), interleaved with each
    other and with a worker start alone (:func:`cputime.interleaved`): a shared host changes the
    CPU the same work takes within seconds, and sides measured in parts side by side see the
    same host. Each part's pass starts its own worker; each side's figure is its parts' sum less
    ``parts - 1`` mean worker starts, so as one whole pass (a build starts its worker once).

    Returns each side's :class:`cputime.Meter` and its passes' results as one
    :class:`~verified_docs.verify_stage.Verified` (the ledger built from every verdict), by
    name, and the worker starts' sum. Raises :class:`RuntimeError` as :func:`cpu_pass` does."""
    split = {side.name: parts_of(side.scenarios, parts) for side in sides}
    results: dict[str, list[Verified]] = {side.name: [] for side in sides}

    def measure_part(side: Side) -> Callable[[int], cputime.Meter]:
        def part(i: int) -> cputime.Meter:
            meter, got = cpu_pass(
                side.root, split[side.name][i], side.kind, estimates=estimates, sleep_limit=side.sleep_limit
            )
            results[side.name].append(got)
            return meter

        return part

    starts_name = "worker start"
    measured = cputime.interleaved(
        {**{side.name: measure_part(side) for side in sides}, starts_name: lambda i: worker_start()}, parts
    )
    starts = measured.pop(starts_name)
    meters = {name: meter.less(starts, (parts - 1) / parts) for name, meter in measured.items()}
    merged = {side.name: _merged(side.root, results[side.name]) for side in sides}
    return meters, merged, starts


def _merged(root: Path, passes: list[Verified]) -> Verified:
    by_scenario = {name: verdicts for got in passes for name, verdicts in got.by_scenario.items()}
    every = [v for verdicts in by_scenario.values() for v in verdicts]
    return Verified(by_scenario, frozenset(), ledger.build(every, root))


def cpu_budget(bare_build_cpu_s: float, own_pass_children_cpu_s: float) -> float:
    """CPU seconds a cold build cannot avoid: a bare ``mkdocs build`` plus every process of the
    own-work pass (the warm worker's ``import toolnexus`` once, and each program once, with no
    check). The wall-time budget was bare build + cold import + own work / cores: in CPU time
    the cores' work adds up, so the own work is not divided, and the worker's import is the cold
    import."""
    return bare_build_cpu_s + own_pass_children_cpu_s


def coverage_and_replies_share(checks_cpu_s: float, plain_cpu_s: float, docs_cold_cpu_s: float) -> tuple[float, float]:
    """What line coverage and the reply pass add (CPU seconds: a full pass less the same pass
    without them, at least 0) and the cold build's CPU without that."""
    extra = max(0.0, checks_cpu_s - plain_cpu_s)
    return extra, docs_cold_cpu_s - extra


def _every(scenarios: list[Scenario], step: int) -> list[Scenario]:
    """Every ``step``-th scenario by name, from the first."""
    return sorted(scenarios, key=lambda s: s.name)[::step]


def overhead_pairs(
    root: Path, scenarios: list[Scenario], pairs: int, estimates: dict[str, float]
) -> tuple[list[float], list[float], list[float], list[float], list[float]]:
    """Paired wall times: the mean overhead per run of a pass over ``scenarios`` one at a time
    (:func:`overhead_per_run`), and a cold ``import toolnexus``. Returns the overheads, the
    imports, the pairs' ratios, the programs' own seconds summed per pass and the imports' CPU
    seconds."""
    owns: list[float] = []

    def overhead() -> float:
        got = verify_pass(root, scenarios, jobs=1, estimates=estimates).verdicts
        owns.append(sum(v.own_s or 0.0 for v in got))
        return overhead_per_run(got)

    def cold_import() -> float:
        import_cpu.append(cputime.run([sys.executable, "-c", "import toolnexus"], root))
        return import_cpu[-1].wall_s

    import_cpu: list[cputime.Usage] = []
    a, b, ratios = cputime.paired(overhead, cold_import, pairs)
    return a, b, ratios, owns, [u.cpu_s for u in import_cpu]


def _bare_build(root: Path, ledger_path: Path, site: Path, env: dict[str, str]) -> cputime.Usage:
    argv = [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(site)]
    return cputime.run(argv, root, {**env, "VERIFIED_DOCS_LEDGER": str(ledger_path)})


def _empty_caches(root: Path) -> None:
    for cache in CACHES:
        shutil.rmtree(root / cache, ignore_errors=True)


@dataclass(frozen=True)
class Ratio:
    """One ratio the bench reports: ``value`` = ``numerator`` / ``denominator`` (for a paired
    one, the median of the pairs' ratios, and for a CPU one the median of its rounds' ratios,
    with the two sides' medians, so ``value`` may differ a little from their quotient), met when at most
    ``limit`` (or at least, for ``at_least``); ``kind`` is "cpu" or "paired"."""

    name: str
    kind: str
    value: float
    limit: float
    numerator: float
    denominator: float
    at_least: bool = False

    @property
    def met(self) -> bool:
        return self.value >= self.limit if self.at_least else self.value <= self.limit


def _paired_ratio(name: str, a: list[float], b: list[float], ratios: list[float], limit: float) -> Ratio:
    return Ratio(name, "paired", statistics.median(ratios), limit, statistics.median(a), statistics.median(b))


@dataclass(frozen=True)
class Round:
    """One round of the CPU figures, taken back to back: every verify pass of today's scenarios
    (``today``, by :data:`PASS_KINDS`), both of :data:`CHAPTER_BASE`'s (``base``), a cold
    ``nox -s docs`` and a bare ``mkdocs build``. Each CPU ratio is computed within a round and
    the bench reports the median over rounds: a shared host runs this machine's cores faster or
    slower over minutes (two quiet runs gave the own-work pass 13.8 and 11.0 CPU seconds), and
    both sides of a ratio taken within a minute or two move together."""

    today: dict[str, cputime.Meter]
    base: dict[str, cputime.Meter]
    docs_cold: cputime.Usage
    bare: cputime.Usage

    def budget(self) -> float:
        return cpu_budget(self.bare.cpu_s, self.today["own"].children_cpu_s)

    def ratios(self) -> dict[str, tuple[float, float, float]]:
        """Each CPU ratio of this round: name -> (value, numerator, denominator)."""
        checks, without = self.today["checks"].cpu_s, self.today.get("plain", self.today["own"]).cpu_s
        extra, rest = coverage_and_replies_share(checks, without, self.docs_cold.cpu_s)
        grown = checks - self.base["checks"].cpu_s
        added = self.today["own"].children_cpu_s - self.base["own"].children_cpu_s
        return {
            "budget": (self.docs_cold.cpu_s / self.budget(), self.docs_cold.cpu_s, self.budget()),
            "share": (extra / rest, extra, rest),
            "chapter": (grown / added if added > 0 else float("inf"), grown, added),
            "chapter limit": (self.base["checks"].cpu_s / self.base["own"].children_cpu_s, 0.0, 0.0),
        }


def _rounds(
    root: Path, scenarios: list[Scenario], plan: Plan, env: dict[str, str], estimates: dict[str, float]
) -> tuple[list[Round], Verified]:
    """``plan.repeats`` :class:`Round` s (the "plain" pass only with ``plan.plain``), printed,
    and the last full pass's result (its ledger feeds the bare builds)."""
    kinds = [k for k in PASS_KINDS if plan.plain or k != "plain"]
    nox = _nox_docs(root)
    if plan.extras or not (root / ".nox" / "docs").is_dir():
        cputime.run(nox, root, env)  # once, so the docs session's environment exists; not counted
    rounds: list[Round] = []
    verified = None
    with tempfile.TemporaryDirectory() as tmp:
        base_root = Path(tmp) / "base"
        base_scenarios = scenarios_at(root, CHAPTER_BASE, base_root)
        starts: list[cputime.Meter] = []
        for _ in range(plan.repeats):
            sides = [Side(f"today {kind}", root, scenarios, kind) for kind in kinds] + [
                Side(f"base {kind}", base_root, base_scenarios, kind, sleep_limit=False) for kind in ("checks", "own")
            ]
            by_side, results, started = interleaved_passes(sides, plan.parts, estimates)
            starts.append(started)
            today = {kind: by_side[f"today {kind}"] for kind in kinds}
            base = {kind: by_side[f"base {kind}"] for kind in ("checks", "own")}
            verified = results["today checks"]
            _empty_caches(root)
            cold = cputime.run(nox, root, env)
            assert verified is not None
            ledger_path = Path(tmp) / "ledger.json"
            ledger.save(verified.ledger, ledger_path)
            rounds.append(Round(today, base, cold, _bare_build(root, ledger_path, Path(tmp) / "site", env)))
    assert verified is not None, "repeats must be at least 1"
    print(
        f"verify passes in {plan.parts} interleaved parts; a worker start alone, CPU "
        f"{_stats([m.cpu_s / plan.parts for m in starts])} (taken off each part but the first)"
    )
    for kind in kinds:
        meters = [r.today[kind] for r in rounds]
        kids = statistics.median(m.children_cpu_s for m in meters)
        print(f"verify all ({kind:<6}) CPU      {_stats([m.cpu_s for m in meters])}  (in child processes: {kids:.2f}s)")
        print(f"verify all ({kind:<6}) wall     {_stats([m.wall_s for m in meters])}")
    for kind in ("checks", "own"):
        meters = [r.base[kind] for r in rounds]
        kids = statistics.median(m.children_cpu_s for m in meters)
        print(
            f"verify {CHAPTER_BASE} ({kind:<6}) CPU {_stats([m.cpu_s for m in meters])}  (in child processes: {kids:.2f}s)"
        )
    print(f"nox -s docs, cold caches, CPU  {_stats([r.docs_cold.cpu_s for r in rounds])}")
    print(f"nox -s docs, cold caches, wall {_stats([r.docs_cold.wall_s for r in rounds])}")
    print(f"bare mkdocs build, CPU         {_stats([r.bare.cpu_s for r in rounds])}  (in each round, for the budget)")
    return rounds, verified


def _cold_interpreters(root: Path, scenarios: list[Scenario], repeats: int, estimates: dict[str, float]) -> None:
    """Print the CPU of passes whose programs each start a cold interpreter (no ratio uses it)."""
    cold = []
    for _ in range(repeats):
        with cputime.measuring() as meter:
            verify_pass(root, scenarios, warm=False, estimates=estimates)
        cold.append(meter.cpu_s)
    print(f"verify all, cold interpreters CPU {_stats(cold)}")


def _noop_figures(root: Path, plan: Plan, env: dict[str, str], verified: Verified) -> Ratio:
    """No-op ``nox -s docs`` paired with bare ``mkdocs build`` s reading ``verified``'s ledger;
    printed. Returns the no-op / bare ratio of each pair's CPU seconds (median of the pairs)."""
    nox = _nox_docs(root)
    bare: list[cputime.Usage] = []
    noop: list[cputime.Usage] = []
    with tempfile.TemporaryDirectory() as tmp:
        ledger_path = Path(tmp) / "ledger.json"
        ledger.save(verified.ledger, ledger_path)

        def noop_docs() -> float:
            noop.append(cputime.run(nox, root, env))
            return noop[-1].wall_s

        def bare_build() -> float:
            bare.append(_bare_build(root, ledger_path, Path(tmp) / "site", env))
            return bare[-1].wall_s

        a, b, wall_ratios = cputime.paired(noop_docs, bare_build, plan.pairs)
    print(f"nox -s docs, no-op             {_stats(a)}  (CPU {_stats([u.cpu_s for u in noop])})")
    print(f"bare mkdocs build              {_stats(b)}  (CPU {_stats([u.cpu_s for u in bare])})")
    print(f"  in wall time (no target): no-op / bare = {statistics.median(wall_ratios):.3f} (median of the pairs)")
    # Each side is one process after another (no parallel step), so quiet its wall time is its CPU
    # time (12.45 s and 12.27 s on 2026-12-07); loaded, waiting for a core stretched the wall
    # times of one pair unevenly (14.6 to 28.3 s), and CPU time does not count that wait.
    noop_cpu, bare_cpu = [x.cpu_s for x in noop], [y.cpu_s for y in bare]
    ratios = [x / y for x, y in zip(noop_cpu, bare_cpu, strict=True)]
    median = statistics.median
    return Ratio(
        "no-op docs / bare build (CPU, paired)", "cpu", median(ratios), 1.3, median(noop_cpu), median(bare_cpu)
    )


def measure(root: Path, plan: Plan, env: dict[str, str]) -> list[Ratio]:
    """Take every figure but the author loop's, print each as it comes, return the ratios."""
    scenarios = discover_project(root)
    # Longest first, from the last build's ledger, as `nox -s docs` schedules them (build.py).
    estimates = ledger.durations(root / ledger.DEFAULT_LEDGER)
    runs = sum(len(s.runs) for s in scenarios)
    print(
        f"machine: {os.cpu_count()} cores, load average {_load()}; {runs} runs in {len(scenarios)} scenarios, "
        f"{default_jobs()} at once"
    )
    rounds, verified = _rounds(root, scenarios, plan, env, estimates)
    if plan.extras:
        _cold_interpreters(root, scenarios, plan.repeats, estimates)

    subset = _every(scenarios, plan.overhead_every)
    over, imports, over_ratios, owns, import_cpu = overhead_pairs(root, subset, plan.pairs, estimates)
    print(f"overhead per program           {_stats(over)}  ({len(subset)} scenarios, one at a time)")
    print(f"programs' own work, summed     {_stats(owns)}  (those scenarios, one at a time)")
    print(f"cold import toolnexus          {_stats(imports)}  (CPU {_stats(import_cpu)})")
    runner = statistics.median(r.today["own"].self_cpu_s for r in rounds) / sum(
        len(s.runs) * len(s.languages) for s in scenarios
    )
    print(
        f"  beside it, in CPU time (no target): this process's CPU per run in the own-work pass "
        f"(the harness's side, without the fork and the tracer) / cold import CPU = {runner:.3f}s / "
        f"{statistics.median(import_cpu):.3f}s = {runner / statistics.median(import_cpu):.3f}"
    )
    ratios = [_paired_ratio("overhead per program / cold import", over, imports, over_ratios, 0.10)]

    noop_ratio = _noop_figures(root, plan, env, verified)
    trips_wall, trips_cpu = mock_round_trips()
    print(
        f"mock model                     {trips_wall:,.0f} round trips/s, {trips_cpu:,.0f} per CPU second (both cores)"
    )
    mock_s, bare_s, mock_ratios = mock_in_fresh_process(root, MOCK_PAIRS)
    print(
        f"mock model, one core           {1e6 / statistics.median(mock_s):,.0f} round trips/s against a bare stdlib "
        f"server's {1e6 / statistics.median(bare_s):,.0f} ({MOCK_PAIRS} pairs, fresh interpreter)"
    )

    per_round = [r.ratios() for r in rounds]

    def median(key: str, i: int = 0) -> float:
        return statistics.median(r[key][i] for r in per_round)

    budgets = [r.budget() for r in rounds]
    print(
        f"  budget = bare build CPU {statistics.median(r.bare.cpu_s for r in rounds):.2f}s + own-work pass's "
        f"processes {statistics.median(r.today['own'].children_cpu_s for r in rounds):.2f}s = "
        f"{statistics.median(budgets):.2f}s (medians; each ratio below is the median of its rounds')"
    )
    ratios.append(
        Ratio("cold docs / budget (CPU)", "cpu", median("budget"), 1.0, median("budget", 1), median("budget", 2))
    )
    ratios.append(noop_ratio)
    ratios.append(_paired_ratio("mock round trip / bare HTTP round trip (one core)", mock_s, bare_s, mock_ratios, 2.0))
    name = "line coverage + reply pass" + ("" if plan.plain else " (+ variants)")
    ratios.append(
        Ratio(
            f"{name} / cold docs without them (CPU)",
            "cpu",
            median("share"),
            0.25,
            median("share", 1),
            median("share", 2),
        )
    )
    name = f"production chapter: verify growth since {CHAPTER_BASE} / added own work (CPU)"
    ratios.append(
        Ratio(name, "cpu", median("chapter"), median("chapter limit"), median("chapter", 1), median("chapter", 2))
    )
    return ratios


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def _get(url: str, timeout: float = 60.0) -> str:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read().decode("utf-8")


def _collect(stream, into: list[str]) -> None:
    for line in stream:
        into.append(line)


def _copy_project(root: Path, into: Path) -> Path:
    for rel in LOOP_COPY:
        src, dst = root / rel, into / rel
        if src.is_dir():
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__"))
        elif src.is_file():
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    return into


@contextmanager
def _serving(
    project: Path, env: dict[str, str], generator: str = "mkdocs"
) -> Iterator[tuple[subprocess.Popen, list[str], str]]:
    """``python -m verified_docs serve --generator GENERATOR`` on ``project`` (port 0) in a process group of its own:
    the process, the lines it printed so far (growing) and its URL; stopped with its group.
    Raises :class:`RuntimeError` when it does not start serving within a minute."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "verified_docs", "serve", "-a", "127.0.0.1:0", "--generator", generator],
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: list[str] = []
    threading.Thread(target=_collect, args=(proc.stdout, lines), daemon=True).start()
    try:
        deadline = time.monotonic() + 60
        while not (found := re.search(r"\[serve\] serving (http://\S+/)", "".join(lines))):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"serve did not start:\n{''.join(lines)[-3000:]}")
            time.sleep(0.05)
        yield proc, lines, found.group(1)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                pass
        kill_group(proc.pid)  # whatever of its own process group is left
        proc.wait()


def _cycle_after(url: str, proc: subprocess.Popen, lines: list[str], epoch: int, timeout_s: float) -> dict:
    """The server's state once a cycle after ``epoch`` finished, asked through the long poll
    open pages wait on. Raises :class:`RuntimeError` when it failed or took over ``timeout_s``."""
    end = time.monotonic() + timeout_s
    while int(_get(f"{url}.verified-docs/reload?epoch={epoch}", timeout=40)) <= epoch:
        if time.monotonic() > end or proc.poll() is not None:
            raise RuntimeError(f"no cycle finished after epoch {epoch}:\n{''.join(lines)[-3000:]}")
    state = json.loads(_get(f"{url}.verified-docs/state"))
    if not state["ok"]:
        raise RuntimeError(f"the author loop's cycle failed:\n{state['report']}")
    return state


def save_to_reload(
    root: Path,
    repeats: int,
    env: dict[str, str],
    timeout_s: float = 300.0,
    edits: tuple[LoopEdit, ...] = LOOP_EDITS,
    generator: str = "mkdocs",
) -> dict[str, tuple[list[float], list[dict]]]:
    """For each of ``edits`` (by name): seconds from saving it to the served page showing it,
    ``repeats`` times, and the server's account of each cycle (``/.verified-docs/state``),
    one serve session with ``generator`` for all of them, the edits taking turns.

    ``python -m verified_docs serve`` (port 0) runs on a copy of the project in a temporary
    folder, never the real tree. Each edit writes a line not seen before (so the result cache
    cannot answer it). The clock runs from just before the write until the server's reload
    answer (the long poll open pages wait on) says the cycle is done and a GET of the page holds
    the new line: the moment a browser's reload would show it, without the browser's own
    rendering. Raises :class:`RuntimeError` when a
    cycle fails or takes over ``timeout_s``."""
    with tempfile.TemporaryDirectory(prefix="verified-docs-loop-") as tmp:
        copy = _copy_project(root, Path(tmp) / "project")
        with _serving(copy, env, generator) as (proc, lines, url):
            epoch = _cycle_after(url, proc, lines, 0, timeout_s)["epoch"]
            texts = {e.name: (copy / e.file).read_text(encoding="utf-8") for e in edits}
            for e in edits:
                if texts[e.name].count(e.line) != 1:
                    raise RuntimeError(f"{e.file} should hold {e.line!r} once (the bench's edit)")
            got: dict[str, tuple[list[float], list[dict]]] = {e.name: ([], []) for e in edits}
            for i in range(repeats):
                for e in edits:
                    line = e.edited(i + 1)
                    start = time.perf_counter()
                    (copy / e.file).write_text(texts[e.name].replace(e.line, line), encoding="utf-8")
                    state = _cycle_after(url, proc, lines, epoch, timeout_s)
                    if f"(edit {i + 1})" not in _get(url + e.page):
                        raise RuntimeError(f"{url}{e.page} does not show the edited line after the reload")
                    got[e.name][0].append(time.perf_counter() - start)
                    got[e.name][1].append(state)
                    epoch = state["epoch"]
                    (copy / e.file).write_text(texts[e.name], encoding="utf-8")  # back, untimed
                    epoch = _cycle_after(url, proc, lines, epoch, timeout_s)["epoch"]
            return got


def author_loop_figures(root: Path, repeats: int, env: dict[str, str], generators: tuple[str, ...] = ()) -> None:
    """Print the author loop's figures and targets (:data:`LOOP_EDITS`: a snippet edit at most
    1 s, a prose edit at most 2 s, save to reloaded page) under each of ``generators`` (default:
    every one), with the pages each save rendered and built again, and the edited scenario's own
    verify time. Raises :class:`RuntimeError` when a cycle fails."""
    from verified_docs.site.generator import GENERATORS

    scenario = find_scenario({s.name: s for s in discover_project(root)}, LOOP_SCENARIO, Location(root))
    own = []
    for _ in range(repeats):
        start = time.perf_counter()
        verify_pass(root, [scenario])
        own.append(time.perf_counter() - start)
    print(f"verify {LOOP_SCENARIO:<23} {_stats(own)}  (its own verify time, in every snippet save)")
    print(f"load average before the author loop: {os.getloadavg()[0]:.2f} (1 min) on {os.cpu_count()} cores")
    for generator in generators or GENERATORS:
        got = save_to_reload(root, repeats, env, generator=generator)
        for edit in LOOP_EDITS:
            samples, states = got[edit.name]
            pages = sorted({(st["pages_rendered"], st["pages_built"]) for st in states})
            print(
                f"save to reloaded page, {generator:<8} {edit.name:<7} {_stats(samples)}  "
                f"(serve on a copy; until the reload answer and the page holds the line)"
            )
            parts = [
                f"verify {st['verify_s']:.2f}s + render {st['render_s']:.2f}s ({st['render_cpu_s']:.2f}s CPU)"
                for st in states
            ]
            print(
                f"  pages rendered, built per save: {', '.join(f'{r}, {b}' for r, b in pages)}; its cycles, as the "
                f"server timed them: {'; '.join(parts)}"
            )
            median = statistics.median(samples)
            print(
                f"  author loop, {generator}, {edit.name} edit: save to reloaded page = {median:.2f}s "
                f"(<= {edit.target_s:.0f} s): {_verdict(median <= edit.target_s)}"
            )


def print_ratios(ratios: list[Ratio]) -> None:
    """The ratios as a table: figure, kind, value (numerator / denominator), limit, verdict."""
    print("targets:")
    print("| ratio | kind | value | numerator / denominator | target | |")
    print("|---|---|---|---|---|---|")
    for r in ratios:
        sign = ">=" if r.at_least else "<="
        print(
            f"| {r.name} | {r.kind} | {r.value:.3f} | {r.numerator:.2f} / {r.denominator:.2f} | "
            f"{sign} {r.limit:g} | {_verdict(r.met)} |"
        )


AGREEMENT = 0.15  # issue 25: a quiet run and a loaded one agree within this share on every ratio


@dataclass(frozen=True)
class Agreement:
    """One ratio of two runs (``--json`` files) side by side: ``first`` and ``second`` its values
    (None where that run lacks it) and ``change`` = second / first - 1."""

    name: str
    first: float | None
    second: float | None

    @property
    def change(self) -> float | None:
        if self.first is None or self.second is None or self.first == 0:
            return None
        return self.second / self.first - 1

    @property
    def agrees(self) -> bool:
        return self.change is not None and abs(self.change) <= AGREEMENT


def agreements(first: list[dict], second: list[dict]) -> list[Agreement]:
    """Each ratio named in either run (lists as ``--json`` writes them), in the first's order."""
    a = {r["name"]: float(r["value"]) for r in first}
    b = {r["name"]: float(r["value"]) for r in second}
    return [Agreement(name, a.get(name), b.get(name)) for name in dict.fromkeys([*a, *b])]


def _read_ratios(path: Path) -> list[dict]:
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise SystemExit(
            f"{path}: not a bench --json file ({e}); write one with: nox -s bench -- --quick --json {path}"
        ) from None
    if not isinstance(found, list) or not all(isinstance(r, dict) and {"name", "value"} <= r.keys() for r in found):
        raise SystemExit(f"{path}: not a bench --json file (a list of ratios, each with a name and a value)")
    return found


def compare(first: Path, second: Path) -> int:
    """Print each ratio of the two runs side by side with its change; 0 when every ratio is in
    both and agrees within :data:`AGREEMENT`, else 1."""
    rows = agreements(_read_ratios(first), _read_ratios(second))
    print(f"| ratio | {first.name} | {second.name} | change | within ±{AGREEMENT:.0%} |")
    print("|---|---|---|---|---|")
    for row in rows:
        shown = [f"{v:.3f}" if v is not None else "missing" for v in (row.first, row.second)]
        change = f"{row.change:+.1%}" if row.change is not None else "-"
        print(f"| {row.name} | {shown[0]} | {shown[1]} | {change} | {'yes' if row.agrees else 'NO'} |")
    apart = [r.name for r in rows if not r.agrees]
    print(f"{len(rows) - len(apart)} of {len(rows)} ratios agree" + (f"; apart: {', '.join(apart)}" if apart else ""))
    return 1 if apart else 0


def main(argv: list[str]) -> int:
    """``[--quick] [author-loop] [--json FILE]``: measure, print every figure and the ratios.
    ``--compare A B``: set two ``--json`` files side by side instead (exit 1 when they disagree)."""
    parser = argparse.ArgumentParser(prog="nox -s bench --", description=__doc__.split("\n\n")[0])
    parser.add_argument("only", nargs="?", choices=["author-loop"], help="only the author loop's figures")
    # No `choices` here: argparse checks an empty list against them too, and refuses it.
    parser.add_argument("generator", nargs="*", help="the author loop's generators: mkdocs, zensical (default: both)")
    parser.add_argument("--quick", action="store_true", help="every ratio in under 5 minutes (fewer samples)")
    parser.add_argument("--json", type=Path, help="also write the ratios to this file")
    parser.add_argument(
        "--compare",
        nargs=2,
        type=Path,
        metavar=("A", "B"),
        help=f"set two --json files side by side (±{AGREEMENT:.0%})",
    )
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    for name in args.generator:
        if name not in ("mkdocs", "zensical") or not args.only:
            parser.error(f"{name!r}: a generator follows author-loop, and is mkdocs or zensical")
    root, env = Path.cwd().resolve(), _env()
    plan = QUICK if args.quick else FULL
    with cputime.measuring() as meter:
        ratios = [] if args.only else measure(root, plan, env)
        forkserver.close_shared()
        if ratios:
            print_ratios(ratios)
        # Absolute targets (1 s, 2 s), not ratios: printed with their verdicts, under each generator.
        author_loop_figures(root, plan.loop_pairs, env, tuple(args.generator or ()))
    print(
        f"bench took {meter.wall_s:.0f}s ({'quick' if args.quick else 'full'}) and {meter.cpu_s:.0f} CPU seconds; "
        f"load average {_load()}"
    )
    if args.json:
        write_atomic(args.json, json.dumps([asdict(r) | {"met": r.met} for r in ratios], indent=2) + "\n")
    return 0


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "CI"}  # CI forces full runs; the no-op must not
    env["NO_MKDOCS_2_WARNING"] = "1"
    return env


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
