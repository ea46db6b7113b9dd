"""``python -m verified_docs serve`` (what ``nox -s serve`` runs): preview the site and verify
again on every save.

It serves the last site that passed every check of the build (:mod:`verified_docs.serve.preview`) and
watches ``snippets/``, ``examples/``, ``rules/``, ``docs/`` and the root's ``mkdocs.yml``,
``pyproject.toml`` (and a ``conftest.py`` there, should the project have one; watchfiles: inotify here, so a save is seen within its
settling step, :data:`WATCH_STEP_MS`). Each save starts a *cycle*:

1. discover the scenarios (parsed ones reused, :class:`~verified_docs.cache.ParsedScenarios`) and verify them
   through the result cache (:mod:`verified_docs.cache`): only a scenario whose inputs changed since it
   passed, or that has not passed, runs; the warm worker stays up between cycles;
2. rewrite the ledger from every verdict, cached or fresh;
3. build the pages (:class:`~verified_docs.serve.incremental.IncrementalSite`, kept between
   cycles): the docs' fences (remembered while unchanged), the render stage and the strict
   build of only the pages whose inputs changed, the guard of the whole site, and the changed
   files copied into ``build/serve/site``;
4. one more epoch: every open page's script sees it and reloads.

A cycle that fails anywhere keeps the server up, prints the build's usual report
(``file:line: what``) and puts it in a banner on every HTML page served, above the last site
that passed, until a cycle passes again. Saves made during a cycle start the next one.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import queue
import signal
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Callable, Iterator

from verified_docs import build as pipeline
from verified_docs import cache as cache_mod
from verified_docs.errors import SourceError, StageFailed, display_path
from verified_docs.run.languages import LANGUAGES
from verified_docs.scenario.load import discover_project
from verified_docs.serve.incremental import IncrementalSite
from verified_docs.serve.preview import LoopState, Outcome, make_server, now, url_of
from verified_docs.site.generator import GENERATORS
from verified_docs.verify_stage import Verified, verify_and_record

WATCHED_DIRS = ("snippets", "examples", "rules", "docs")
WATCHED_FILES = ("mkdocs.yml", "pyproject.toml", "conftest.py")
# How long watchfiles waits for more changes after one before it reports the batch (its default
# is 50 ms). An editor's save is one write and a rename, well inside 20 ms; a save that spans
# two batches starts one more cycle, which finds what the second batch changed.
WATCH_STEP_MS = 20
SERVED = Path("build") / "serve" / "site"
DEFAULT_ADDR = "127.0.0.1:8000"


class _Tee(io.TextIOBase):
    """Writes to ``stream`` and keeps a copy, so the report printed is the report shown."""

    def __init__(self, stream) -> None:
        self.stream, self.copy, self._lock = stream, io.StringIO(), threading.Lock()

    def write(self, text: str) -> int:
        with self._lock:
            self.copy.write(text)
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()


@contextlib.contextmanager
def _captured_stderr() -> Iterator[_Tee]:
    tee = _Tee(sys.stderr)
    with contextlib.redirect_stderr(tee):
        yield tee


def _report(printed: str) -> str:
    """What the banner shows of a cycle's stderr: MkDocs' progress lines left out."""
    return "\n".join(line for line in printed.splitlines() if not line.startswith("INFO    -")).strip()


class AuthorLoop:
    """The cycles of one serve session for the project at ``root``. The result cache's context
    (machinery, toolnexus, interpreter) is taken once, at start: the loop does not watch the
    machinery. ``render`` is the rendering step (default: an
    :class:`~verified_docs.serve.incremental.IncrementalSite` built with ``generator``)."""

    def __init__(
        self,
        root: Path,
        *,
        languages: tuple[str, ...] = tuple(LANGUAGES),
        jobs: int | None = None,
        render: Callable[[Path, Path], object] | None = None,
        generator: str = pipeline.DEFAULT_GENERATOR,
    ) -> None:
        self.root, self.languages, self.jobs = Path(root).resolve(), languages, jobs
        self.site = IncrementalSite(self.root, generator)
        self.render = render or (lambda root, served: self.site.build(served, self._scenarios))
        self._scenarios: list | None = None
        self.served = self.root / SERVED
        self.cache = cache_mod.ResultCache.open(self.root / cache_mod.DEFAULT_DIR)
        self.parsed = cache_mod.ParsedScenarios.open(self.root / cache_mod.PARSED_DIR)

    def verify(self) -> Verified:
        """Every scenario verified (:func:`~verified_docs.verify_stage.verify_and_record`: unchanged
        passed ones from the result cache) and the ledger rewritten from all of them. Raises
        :class:`SourceError` on a malformed scenario (the ledger is left as it was)."""
        self._scenarios = scenarios = discover_project(self.root, self.parsed.load)
        return verify_and_record(self.root, scenarios, self.languages, cache=self.cache, jobs=self.jobs)

    def cycle(self) -> Outcome:
        """Verify what changed, then render; never raises (a failure is the outcome's report)."""
        start = time.perf_counter()
        verify_s = render_s = render_cpu_s = 0.0
        ran: dict[str, float] = {}
        built = None
        with _captured_stderr() as printed:
            try:
                try:
                    verified = self.verify()
                finally:
                    verify_s = time.perf_counter() - start
                ran = verified.ran()
                verified.report_failures()
                verified.raise_if_failed()
                rendered, cpu = time.perf_counter(), time.process_time()
                try:
                    built = self.render(self.root, self.served)
                finally:
                    render_s = time.perf_counter() - rendered
                    render_cpu_s = time.process_time() - cpu
                ok = True
            except SourceError as e:
                print(e, file=sys.stderr)
                ok = False
            except StageFailed as e:
                print(f"[serve] not verified: {e}", file=sys.stderr)
                ok = False
            except Exception:  # a bug of ours must not stop the server, nor pass for a green page
                print(f"[serve] internal error, nothing was verified:\n{traceback.format_exc()}", file=sys.stderr)
                ok = False
        return Outcome(
            ok=ok,
            report="" if ok else _report(printed.copy.getvalue()),
            reverified=ran,
            verify_s=round(verify_s, 3),
            render_s=round(render_s, 3),
            total_s=round(time.perf_counter() - start, 3),
            finished=now(),
            pages_rendered=len(getattr(built, "rendered", ())),
            pages_built=getattr(built, "built", 0),
            render_cpu_s=round(render_cpu_s, 3),
        )


def run_cycle(loop: AuthorLoop, state: LoopState) -> Outcome:
    """One cycle with the server told it is running; prints its one-line summary."""
    state.begin()
    outcome = loop.cycle()
    epoch = state.end(outcome)
    ran = (
        ", ".join(f"{name} in {s:.2f}s" for name, s in outcome.reverified.items()) or "none"
        if len(outcome.reverified) <= 3
        else f"{len(outcome.reverified)} scenarios"
    )
    if outcome.ok:
        print(
            f"[serve] verified and rebuilt in {outcome.total_s:.2f}s (verify {outcome.verify_s:.2f}s, re-verified: "
            f"{ran}; render {outcome.render_s:.2f}s: {outcome.pages_rendered} page(s) rendered, "
            f"{outcome.pages_built} built); pages reloaded (epoch {epoch})",
            flush=True,
        )
    else:
        print(
            f"[serve] NOT VERIFIED after {outcome.total_s:.2f}s (re-verified: {ran}); the server stays up and "
            f"every page carries the report until a save makes it green (epoch {epoch})",
            flush=True,
        )
    return outcome


def _watch(
    paths: list[Path], recursive: bool, keep: Callable[[str], bool], changes: "queue.Queue[str]", stop: threading.Event
) -> None:
    import watchfiles

    for batch in watchfiles.watch(
        *paths, recursive=recursive, stop_event=stop, raise_interrupt=False, step=WATCH_STEP_MS
    ):
        for _, path in batch:
            if keep(path):
                changes.put(path)


def start_watchers(root: Path, changes: "queue.Queue[str]", stop: threading.Event) -> list[threading.Thread]:
    """Threads that put every changed path under the watched folders, and every change to a
    watched root file, on ``changes`` until ``stop`` is set. The root itself is watched without
    recursion: below it are build/ and the nox environments, tens of thousands of files."""
    import watchfiles

    default = watchfiles.DefaultFilter()
    folders = [root / d for d in WATCHED_DIRS if (root / d).is_dir()]
    jobs = [
        (folders, True, lambda p: default(watchfiles.Change.modified, p)),
        ([root], False, lambda p: Path(p).name in WATCHED_FILES),
    ]
    threads = [
        threading.Thread(target=_watch, args=(paths, rec, keep, changes, stop), daemon=True, name="serve-watch")
        for paths, rec, keep in jobs
        if paths
    ]
    for t in threads:
        t.start()
    return threads


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    """Serve and verify on save until interrupted (Ctrl-C or SIGTERM); exit 0 then, 2 on bad
    arguments or an address in use."""
    parser = argparse.ArgumentParser(prog="verified_docs serve", description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=None, help="project root, holding mkdocs.yml (default: cwd)")
    parser.add_argument(
        "-a",
        "--dev-addr",
        default=DEFAULT_ADDR,
        metavar="HOST:PORT",
        help=f"where to serve (default {DEFAULT_ADDR}; port 0 picks a free one)",
    )
    parser.add_argument("--jobs", "-j", type=int, default=None, help="scenarios verified at once")
    parser.add_argument(
        "--generator",
        choices=GENERATORS,
        default=pipeline.DEFAULT_GENERATOR,
        help=f"the site generator (default: {pipeline.DEFAULT_GENERATOR})",
    )
    args = parser.parse_args(argv)
    root = (args.root or Path.cwd()).resolve()
    bad = pipeline.project_root_problem(root)
    if bad:
        print(f"{args.root or root}: {bad}", file=sys.stderr)
        return 2
    host, _, port = args.dev_addr.rpartition(":")
    if not host or not port.isdigit():
        parser.error(f"--dev-addr {args.dev_addr!r}: expected HOST:PORT, e.g. {DEFAULT_ADDR}")
    state = LoopState()
    try:
        server = make_server(root / SERVED, state, host, int(port))
    except OSError as e:
        print(f"cannot serve on {args.dev_addr}: {e.strerror or e}; pick another with -a HOST:PORT", file=sys.stderr)
        return 2
    changes: queue.Queue[str] = queue.Queue()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, _interrupt)
    threading.Thread(target=server.serve_forever, daemon=True, name="serve-http").start()
    watched = ", ".join([f"{d}/" for d in WATCHED_DIRS] + list(WATCHED_FILES))
    print(f"[serve] serving {url_of(server)} (watching {watched}; Ctrl-C stops)", flush=True)
    loop: AuthorLoop | None = None
    try:
        start_watchers(root, changes, stop)
        loop = AuthorLoop(root, jobs=args.jobs, generator=args.generator)
        run_cycle(loop, state)
        # The first cycle loaded what the session keeps (MkDocs, the theme, the memos of every
        # page); frozen, it is no longer scanned by each full collection a later save triggers
        # (0.05 s a save here, 0.02 s frozen). Once, in this process of ours: whatever of it a
        # later save drops inside a reference cycle stays allocated, a bounded amount.
        gc.freeze()
        while True:
            try:
                first = changes.get(timeout=0.5)
            except queue.Empty:
                continue
            saved = {first}
            while True:  # a save often touches several files (an editor's backup, a rename)
                try:
                    saved.add(changes.get_nowait())
                except queue.Empty:
                    break
            print(f"[serve] changed: {', '.join(sorted(display_path(Path(p)) for p in saved))}", flush=True)
            run_cycle(loop, state)
    except KeyboardInterrupt:
        print("[serve] stopped", flush=True)
    finally:
        if loop is not None:
            loop.site.close()  # the kept MkDocs and Zensical
        stop.set()
        server.shutdown()
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
