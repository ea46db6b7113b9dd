"""Benchmarks, printed side by side from one run (medians with min and max), with the speed
targets met or missed:

- a bare ``mkdocs build`` of this site and a cold ``import toolnexus``;
- verification of every run from the warm fork server and from a cold interpreter per program;
- per-program overhead: each run's wall time (mock model, start, checks) minus the program's
  own time from its first line to its exit, averaged over the runs of a pass that verifies one
  scenario at a time (uncontended, so it is the harness's cost, not waiting for a core);
- ``nox -s docs`` cold (result caches emptied) and right after with nothing changed;
- the mock model's round trips per second;
- what line coverage and the reply pass add to verification, against a cold ``nox -s docs``;
- what the production chapter added to the verify stage, against what its programs
  themselves do: the scenarios of :data:`CHAPTER_BASE` verified by the same code, then today's;
- the author loop: save to reloaded page under ``nox -s serve`` (:func:`save_to_reload`, on a
  copy of the project) for a one-line edit of one snippet (target: at most 1 s) and for a
  one-line prose edit of one page (at most 2 s), under MkDocs and under Zensical, with the
  pages each save rendered and built again (a count no load changes) and that scenario's own
  verify time beside them.

"The programs' own work" is always taken from that one-at-a-time pass: verifying several
scenarios at once (as the build does) stretches each program's wall time while it waits for a
core, which would inflate the very budget the build is measured against.

Ratios are what to compare: this machine is shared, so absolute seconds drift between runs.
Run as ``nox -s bench`` (it needs nox itself to time ``nox -s docs``); ``nox -s bench --
author-loop`` prints only the author loop's figures and targets.
"""

from __future__ import annotations

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
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from verified_docs import ledger
from verified_docs.errors import Location
from verified_docs.run.mock_model import MockModel
from verified_docs.run.process import kill_group
from verified_docs.scenario.load import SCENARIO_ROOTS, discover_project, find_scenario
from verified_docs.scenario.records import Scenario, Step
from verified_docs.verify.scenarios import default_jobs
from verified_docs.verify.verdict import RunVerdict
from verified_docs.verify_stage import Verified, verify_and_record

CACHES = (Path("build") / "cache",)
# `main` just before the production chapter: the verify stage may grow past it by no
# more than the added programs' own work spread over the machine's cores.
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
        "to act until a reviewer approves, and the reviewer is reachable while the run is going, so the",
        "reachable",
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


def _timed(argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return time.perf_counter() - start


def _stats(samples: list[float], unit: str = "s") -> str:
    return (
        f"median {statistics.median(samples):7.3f}{unit}  min {min(samples):7.3f}{unit}  max {max(samples):7.3f}{unit}"
    )


def _verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def mock_round_trips(seconds: float = 2.0) -> float:
    """Sequential chat-completion round trips per second over one keep-alive connection."""
    steps = tuple(Step(Location(Path("bench"), 0), reply="ok") for _ in range(200_000))
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]})
    with MockModel(steps, Location(Path("bench"), 0)) as mock:
        conn = http.client.HTTPConnection("127.0.0.1", mock.port)
        headers = {"Authorization": f"Bearer {mock.api_key}", "Content-Type": "application/json"}
        count, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            conn.request("POST", "/v1/chat/completions", body=body, headers=headers)
            conn.getresponse().read()
            count += 1
        elapsed = time.perf_counter() - start
        conn.close()
    return count / elapsed


def overhead_per_run(verdicts: list[RunVerdict]) -> float:
    """Seconds each run spends outside the program's own work: the runs' total wall time minus
    the programs' own time (first line to exit), divided by the number of runs."""
    return sum(v.duration_s - (v.own_s or 0.0) for v in verdicts) / len(verdicts)


def scenarios_at(root: Path, rev: str, into: Path) -> list:
    """The scenarios of git revision ``rev`` of the repository at ``root``, extracted under
    ``into`` (``git archive`` of the scenario folders and ``rules/``). Raises
    :class:`subprocess.CalledProcessError` when git cannot read ``rev``."""
    import io
    import tarfile

    folders = [f for f, _ in SCENARIO_ROOTS] + ["rules"]
    tar = subprocess.run(
        ["git", "-C", str(root), "archive", "--format=tar", rev, *folders], capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
        archive.extractall(into, filter="data")
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


def verify_timed(
    root: Path,
    scenarios: list[Scenario],
    repeats: int,
    *,
    sleep_limit: bool = True,
    jobs: int | None = None,
    estimates: dict[str, float] | None = None,
) -> tuple[list[float], list[float], list[list[RunVerdict]]]:
    """Wall seconds of ``repeats`` warm verifications of ``scenarios`` (:func:`verify_pass`),
    the programs' own seconds in each, summed, and each repeat's verdicts. Failures are timed
    like passes; ``sleep_limit=False`` lifts the sleep limit, which an older revision's
    scenarios may break without being any slower to verify."""
    from verified_docs.verify import scenarios as verify_mod

    walls, owns, verdicts = [], [], []
    limit = verify_mod.SLEEP_LIMIT_S
    verify_mod.SLEEP_LIMIT_S = verify_mod.SLEEP_LIMIT_S if sleep_limit else float("inf")
    try:
        for _ in range(repeats):
            start = time.perf_counter()
            got = verify_pass(root, scenarios, jobs=jobs, estimates=estimates).verdicts
            walls.append(time.perf_counter() - start)
            owns.append(sum(v.own_s or 0.0 for v in got))
            verdicts.append(got)
    finally:
        verify_mod.SLEEP_LIMIT_S = limit
    return walls, owns, verdicts


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
    rendering. Raises :class:`RuntimeError` when a cycle fails or takes over ``timeout_s``."""
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
    own, _, _ = verify_timed(root, [scenario], repeats)
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


@dataclass(frozen=True)
class Figures:
    """What :func:`main` measured: seconds per sample (``repeats`` samples each; ``trips`` in
    round trips per second), and the runs and scenarios measured."""

    imports: list[float]
    builds: list[float]
    warm: list[float]
    cold: list[float]
    without_checks: list[float]
    own_sums: list[float]
    overheads: list[float]
    docs_cold: list[float]
    docs_noop: list[float]
    base_walls: list[float]
    base_owns: list[float]
    base_runs: int
    runs: int
    scenarios: int
    trips: float


def _warm_and_cold(
    root: Path, scenarios: list[Scenario], repeats: int, estimates: dict[str, float]
) -> tuple[list[float], list[float], Verified]:
    """Wall seconds of warm and of cold passes, alternating, and the last warm pass. Raises
    :class:`RuntimeError` when a run fails: the figures compare passing builds."""
    warm_totals: list[float] = []
    cold_totals: list[float] = []
    verified = None
    for _ in range(repeats):
        for warm, totals in ((True, warm_totals), (False, cold_totals)):
            start = time.perf_counter()
            got = verify_pass(root, scenarios, warm=warm, estimates=estimates)
            totals.append(time.perf_counter() - start)
            if got.failed:
                raise RuntimeError(f"bench needs every run to pass; failed: {', '.join(v.test_id for v in got.failed)}")
            if warm:
                verified = got
    assert verified is not None, "repeats must be at least 1"
    return warm_totals, cold_totals, verified


def _without_checks(root: Path, scenarios: list[Scenario], repeats: int, estimates: dict[str, float]) -> list[float]:
    """The cost of the truth checks: warm passes without line coverage and without the reply
    pass (patched off here only; the build has no switch for them)."""
    from verified_docs.verify import scenarios as verify_mod
    from verified_docs.verify import verdict as verdict_mod

    samples = []
    real_env, real_pass = verdict_mod.line_coverage.environment, verify_mod._reply_pass
    verdict_mod.line_coverage.environment = lambda data_prefix, files: {}
    verify_mod._reply_pass = lambda scenario, lang, mine, warm: mine
    try:
        for _ in range(repeats):
            start = time.perf_counter()
            verify_pass(root, scenarios, estimates=estimates)
            samples.append(time.perf_counter() - start)
    finally:
        verdict_mod.line_coverage.environment, verify_mod._reply_pass = real_env, real_pass
    return samples


def _bare_builds(root: Path, verified: Verified, repeats: int, env: dict[str, str]) -> list[float]:
    """Seconds of a bare ``mkdocs build`` of the site, its hook reading ``verified``'s ledger."""
    with tempfile.TemporaryDirectory() as tmp:
        ledger_path = Path(tmp) / "ledger.json"
        ledger.save(verified.ledger, ledger_path)
        site = str(Path(tmp) / "site")
        argv = [sys.executable, "-m", "mkdocs", "build", "-q", "-d", site]
        return [_timed(argv, root, {**env, "VERIFIED_DOCS_LEDGER": str(ledger_path)}) for _ in range(repeats)]


def _docs(root: Path, repeats: int, env: dict[str, str]) -> tuple[list[float], list[float]]:
    """Seconds of ``nox -s docs`` with the result caches emptied, and right after (a no-op)."""
    nox = [sys.executable, "-m", "nox", "-f", str(root / "noxfile.py"), "-s", "docs"]
    _timed(nox, root, env)  # once, so the docs session's environment exists; not counted
    docs_cold, docs_noop = [], []
    for _ in range(repeats):
        for cache in CACHES:
            shutil.rmtree(root / cache, ignore_errors=True)
        docs_cold.append(_timed(nox, root, env))
        docs_noop.append(_timed(nox, root, env))
    return docs_cold, docs_noop


def measure(root: Path, repeats: int, env: dict[str, str]) -> Figures:
    """Every figure :func:`main` prints but the author loop's, in the order they are taken."""
    scenarios = discover_project(root)
    # Longest first, from the last build's ledger, as `nox -s docs` schedules them (build.py).
    estimates = ledger.durations(root / ledger.DEFAULT_LEDGER)
    imports = [_timed([sys.executable, "-c", "import toolnexus"], root) for _ in range(repeats)]
    warm, cold, verified = _warm_and_cold(root, scenarios, repeats, estimates)
    _, own_sums, alone = verify_timed(root, scenarios, repeats, jobs=1)
    without_checks = _without_checks(root, scenarios, repeats, estimates)
    with tempfile.TemporaryDirectory() as tmp:
        base = scenarios_at(root, CHAPTER_BASE, Path(tmp))
        base_walls, _, _ = verify_timed(Path(tmp), base, repeats, sleep_limit=False, estimates=estimates)
        _, base_owns, _ = verify_timed(Path(tmp), base, repeats, sleep_limit=False, jobs=1)
    builds = _bare_builds(root, verified, repeats, env)
    docs_cold, docs_noop = _docs(root, repeats, env)
    return Figures(
        imports=imports,
        builds=builds,
        warm=warm,
        cold=cold,
        without_checks=without_checks,
        own_sums=own_sums,
        overheads=[overhead_per_run(got) for got in alone],
        docs_cold=docs_cold,
        docs_noop=docs_noop,
        base_walls=base_walls,
        base_owns=base_owns,
        base_runs=sum(len(s.runs) for s in base),
        runs=len(verified.verdicts),
        scenarios=len(scenarios),
        trips=mock_round_trips(),
    )


def _print_figures(f: Figures, cores: int, repeats: int) -> None:
    print(
        f"machine: {cores} cores; {f.runs} runs in {f.scenarios} scenarios, {default_jobs()} at once; "
        f"medians of {repeats}"
    )
    print(f"cold import toolnexus          {_stats(f.imports)}")
    print(f"bare mkdocs build              {_stats(f.builds)}")
    print(f"verify all, warm fork server   {_stats(f.warm)}")
    print(
        f"verify all, cold interpreters  {_stats(f.cold)}  "
        f"(warm is {statistics.median(f.cold) / statistics.median(f.warm):.1f}x faster)"
    )
    print(f"verify all, no lines/replies   {_stats(f.without_checks)}")
    print(f"programs' own work, summed     {_stats(f.own_sums)}  (one scenario at a time)")
    print(f"overhead per program           {_stats(f.overheads)}")
    print(f"nox -s docs, cold caches       {_stats(f.docs_cold)}")
    print(f"nox -s docs, no-op             {_stats(f.docs_noop)}")
    print(f"mock model                     {f.trips:,.0f} round trips/s")


def _print_targets(f: Figures, cores: int) -> None:
    cold_import, bare = statistics.median(f.imports), statistics.median(f.builds)
    overhead, own = statistics.median(f.overheads), statistics.median(f.own_sums)
    docs_cold, docs_noop = statistics.median(f.docs_cold), statistics.median(f.docs_noop)
    budget_cold = bare + cold_import + own / cores
    print("targets:")
    print(
        f"  overhead per program / cold import = {overhead:.3f}s / {cold_import:.3f}s = "
        f"{overhead / cold_import:.3f} (<= 0.10): {_verdict(overhead <= 0.10 * cold_import)}"
    )
    print(
        f"  cold docs / (bare build + cold import + own work / {cores} cores) = {docs_cold:.2f}s / "
        f"{budget_cold:.2f}s = {docs_cold / budget_cold:.2f} (<= 1.2): {_verdict(docs_cold <= 1.2 * budget_cold)}"
    )
    print(
        f"  no-op docs / bare build = {docs_noop:.2f}s / {bare:.2f}s = "
        f"{docs_noop / bare:.2f} (<= 1.3): {_verdict(docs_noop <= 1.3 * bare)}"
    )
    print(f"  mock round trips/s = {f.trips:,.0f} (>= 2,000): {_verdict(f.trips >= 2000)}")
    extra = max(0.0, statistics.median(f.warm) - statistics.median(f.without_checks))
    base_docs = docs_cold - extra
    print(
        f"  line coverage + reply pass / cold docs without them = {extra:.2f}s / {base_docs:.2f}s = "
        f"{extra / base_docs:.2f} (<= 0.25): {_verdict(extra <= 0.25 * base_docs)}"
    )
    grown = statistics.median(f.warm) - statistics.median(f.base_walls)
    added = (own - statistics.median(f.base_owns)) / cores
    print(
        f"  production chapter: verify stage growth since {CHAPTER_BASE} ({f.base_runs} -> {f.runs} runs) / "
        f"added programs' own work / {cores} cores = {grown:.2f}s / {added:.2f}s = "
        f"{grown / added if added > 0 else float('inf'):.2f} (<= 1.0): {_verdict(grown <= added)}"
    )


def main(root: Path, repeats: int = 3) -> int:
    """Measure (:func:`measure`), print every figure and target, then the author loop's."""
    root = root.resolve()
    env = _env()
    cores = os.cpu_count() or 1
    figures = measure(root, repeats, env)
    _print_figures(figures, cores, repeats)
    _print_targets(figures, cores)
    author_loop_figures(root, repeats, env)
    return 0


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "CI"}  # CI forces full runs; the no-op must not
    env["NO_MKDOCS_2_WARNING"] = "1"
    return env


if __name__ == "__main__":
    if sys.argv[1:2] == ["author-loop"] and len(sys.argv) <= 3:
        author_loop_figures(Path.cwd().resolve(), 3, _env(), tuple(sys.argv[2:]))
        sys.exit(0)
    if sys.argv[1:]:
        sys.exit(
            f"usage: python -m verified_docs.tools.bench [author-loop [mkdocs|zensical]]; got {' '.join(sys.argv[1:])}"
        )
    sys.exit(main(Path.cwd()))
