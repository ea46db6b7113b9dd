"""Build the site in one process: verify, run the docs' fences, render Markdown, generate, guard, publish.

``python -m verified_docs build`` (what ``nox -s docs`` runs). Each stage stops the build on
failure, so ``site/`` is only ever replaced by a site whose every code block ran:

1. verify every scenario, answering unchanged ones from the result cache (:mod:`verified_docs.cache`);
2. run the Python fences written in ``docs/`` under pytest-markdown-docs (alongside step 1),
   each page in a process of its own, unless the page, the test plugin, toolnexus, the
   machinery and every file its fences read are as when they last passed;
3. render Markdown (:mod:`verified_docs.render.pages`): ``docs/`` with every directive and claim
   rendered, the published programs and the Mermaid script, into ``build/rendered/docs``, and
   a generated ``build/rendered/mkdocs.yml`` without hooks;
4. the generator (:mod:`verified_docs.site.generator`): ``mkdocs build --strict`` (in this process: a no-op
   rebuild should cost about a bare ``mkdocs build``) or, with ``--generator zensical``,
   ``zensical build --strict``, into ``build/rendered/site``;
5. the guard: every code block in the built site is a verified section, a verified output or
   a fence that ran, and every directive of ``docs/`` came out as its block, whichever
   generator built it;
6. swap the built site into ``site/``.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import logging
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from verified_docs import cache as cache_mod
from verified_docs import ledger as ledger_mod
from verified_docs.errors import (
    Location,
    Problem,
    SourceError,
    annotate,
    annotate_text,
    display_path,
    on_github_actions,
    workflow_command,
)
from verified_docs.fences.run import PageRun, first_change
from verified_docs.run import tmproot
from verified_docs.run.languages import LANGUAGES
from verified_docs.scenario.load import discover_project
from verified_docs.site import reproducible
from verified_docs.site.generator import DEFAULT as DEFAULT_GENERATOR
from verified_docs.site.generator import GENERATORS

FENCES = Path("build") / "executed-fences.json"
FENCE_CACHE = Path("build") / "cache" / "fences"
PARTIAL = Path("build") / "rendered" / "site"


class StageFailed(Exception):
    """A stage of the build failed; the message says which and why (details were printed)."""


def _stage(name: str):
    """Decorator: print how long the stage took once it returns."""

    def wrap(fn):
        @functools.wraps(fn)
        def run(*args, **kwargs):
            start = time.perf_counter()
            result = fn(*args, **kwargs)
            print(f"[{name}] done in {time.perf_counter() - start:.2f}s", flush=True)
            return result

        return run

    return wrap


@_stage("verify")
def verify(root: Path, languages: tuple[str, ...], *, force: bool, jobs: int | None) -> None:
    """Verify every scenario (cached unless ``force``) and write the ledger. Raises
    :class:`StageFailed` when a run failed, :class:`SourceError` on a malformed scenario."""
    parsed = None if force else cache_mod.ParsedScenarios.open(root / cache_mod.PARSED_DIR)
    scenarios = discover_project(root, parsed.load if parsed else None)
    cache = None if force else cache_mod.ResultCache.open(root / cache_mod.DEFAULT_DIR)
    estimates = ledger_mod.durations(root / ledger_mod.DEFAULT_LEDGER)
    by_scenario, cached = cache_mod.verify_cached(scenarios, languages, cache, jobs=jobs, estimates=estimates)
    verdicts = [v for vs in by_scenario.values() for v in vs]
    failed = [v for v in verdicts if not v.passed]
    for v in failed:
        print(v.report(), file=sys.stderr)
        annotate(v.problems, f"verification failed: {v.test_id}")
    ledger_mod.save(ledger_mod.build(verdicts, root), root / ledger_mod.DEFAULT_LEDGER)
    print(
        f"verify: {len(verdicts) - len(failed)} of {len(verdicts)} runs passed; "
        f"{len(cached)} of {len(by_scenario)} scenarios unchanged since they passed"
    )
    if failed:
        raise StageFailed(f"{len(failed)} run(s) failed verification")


# A line that may open a Python fence: pages without one are not parsed (a rebuild with nothing
# changed reads every page, and parsing them all costs more than the rest of this stage).
_MAYBE_PYTHON_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*py", re.M)


def fence_pages(docs: Path) -> list[Path]:
    """The pages under ``docs`` that hold a top-level Python fence (absolute paths, sorted)."""
    from verified_docs.site.guard import page_fences  # markdown-it-py: the docs extra

    candidates = [p for p in sorted(docs.rglob("*.md")) if _MAYBE_PYTHON_FENCE.search(p.read_text(encoding="utf-8"))]
    return sorted({f.path for page in candidates for f in page_fences(page)})


FENCE_PLUGIN = "verified_docs.fences.plugin"


def plugin_source() -> Path:
    """The fence plugin's source file (part of every page's key)."""
    from importlib.util import find_spec

    spec = find_spec(FENCE_PLUGIN)
    assert spec is not None and spec.origin is not None, FENCE_PLUGIN
    return Path(spec.origin)


def _fence_page_key(root: Path, page: Path, context: str) -> str:
    """Hex SHA-256 of what a page's fences are run with: the page itself, the fence plugin,
    pytest's configuration and ``context`` (machinery, toolnexus, interpreter, pytest and
    pytest-markdown-docs versions). The files the fences read are checked separately, from
    the cache entry, since only a run can tell which they are."""
    h = hashlib.sha256(f"{root}\0{context}".encode())
    h.update(hashlib.sha256(plugin_source().read_bytes()).digest())
    for path in (root / "conftest.py", root / "pyproject.toml", page):
        digest = hashlib.sha256(path.read_bytes()).digest() if path.is_file() else b"missing"
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + digest)
    return h.hexdigest()


def _fence_context() -> str:
    from importlib.metadata import version

    return "\0".join(
        [
            cache_mod.machinery_digest(cache_mod.FENCE_PATH),
            cache_mod.environment_digest(),
            version("pytest"),
            version("pytest-markdown-docs"),
        ]
    )


class Fences:
    """The Python fences of ``docs/``, page by page: every page that has some is run under
    pytest-markdown-docs in a pytest process of its own, alongside verification, so nothing
    one page's fences set (environment variables, the working directory, imported modules,
    globals of a library) can make another page's pass. A page's pass is kept under
    ``build/cache/fences/`` by its key (:func:`_fence_page_key`) and reused while every file its
    fences read is unchanged (recorded by the test plugin, see :mod:`verified_docs.fences.run`).

    Why a process per page: it is the only isolation that covers everything (imported modules
    and library globals too, not only what :class:`~verified_docs.fences.run.ProcessState` can put back);
    it costs about 0.85 s of CPU per page (starting pytest and importing toolnexus), measured
    here with the two pages it had then: a forced build spends 3.3 CPU-s instead of 2.6 with
    one shared process, while its wall time stays verification's (5.5 s against 5.1 s on two
    busy cores).

    Why remember rather than always run: checking a remembered pass costs hashing what its
    fences read, about 430 files (6 MB, most of them the packages toolnexus imports; shared
    between pages), 25 to 60 ms, against 1.7 CPU-s to run them; a build with nothing changed
    stays at 1.1 CPU-s. Each child records what it read, so a change to any of it (a data file
    next to the page, a module of this project, an upgraded package) runs the page again; the
    standard library is left to the interpreter part of the key. Not seen: directory listings,
    environment variables and what a fence's own subprocesses read."""

    def __init__(self, root: Path, *, force: bool) -> None:
        self.root, self.start = root, time.perf_counter()
        self.pages = fence_pages(root / "docs")
        context = _fence_context() if self.pages else ""
        self.keys = {page: _fence_page_key(root, page, context) for page in self.pages}
        self.runs: dict[Path, PageRun] = {}
        self._digests: dict[str, object] = {}
        todo = []
        for page in self.pages:
            remembered = None if force else self._remembered(page)
            if remembered is None:
                todo.append(page)
            else:
                self.runs[page] = remembered
        self.cached = len(self.runs)
        self._tmp = Path(tempfile.mkdtemp(prefix="verified-docs-fences-"))
        self._procs: list[subprocess.Popen] = []
        self._lock = threading.Lock()
        self._stopped = False
        self._pool = ThreadPoolExecutor(max_workers=max(1, min(len(todo), os.cpu_count() or 1)))
        self._futures = {page: self._pool.submit(self._run, page) for page in todo}

    def _entry(self, page: Path) -> Path:
        return self.root / FENCE_CACHE / f"{self.keys[page]}.json"

    def _remembered(self, page: Path) -> PageRun | None:
        try:
            run = PageRun.load(self._entry(page))
        except (OSError, ValueError, KeyError, TypeError):
            return None
        changed = first_change(run.reads, self._digests)
        if changed is not None:
            print(
                f"[fences] {display_path(page)}: {display_path(Path(changed))} changed since its fences passed",
                flush=True,
            )
            return None
        return run

    def _run(self, page: Path) -> tuple[int, str, PageRun | None]:
        out = self._tmp / f"{self.keys[page]}.json"
        with self._lock:
            if self._stopped:
                return -1, "", None
            proc = subprocess.Popen(
                [sys.executable, "-m", "pytest", str(page), "-q", "-p", "no:cacheprovider", "-p", FENCE_PLUGIN],
                cwd=self.root,
                env={**os.environ, "VERIFIED_DOCS_FENCES_OUT": str(out)},
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            self._procs.append(proc)
        output, _ = proc.communicate()
        try:
            return proc.returncode, output, PageRun.load(out)
        except (OSError, ValueError, KeyError, TypeError):
            return proc.returncode, output, None

    def finish(self) -> None:
        """Wait for the pages' fences and write what ran for the guard; raises
        :class:`StageFailed` when a fence failed (each printed at its page and line)."""
        problems: list[Problem] = []
        for page, future in self._futures.items():
            code, output, run = future.result()
            # Exit 5: pytest collected nothing (only `notest` fences); the guard reports those.
            if code in (0, 5) and run is not None and not run.failed:
                self.runs[page] = run
                run.save(self._entry(page))
                continue
            print(f"--- the Python fences of {display_path(page)} (pytest exit {code}):\n{output}", end="")
            if run is not None and run.failed:
                problems += [f.problem() for f in run.failed]
            elif run is not None:
                problems.append(
                    Problem(
                        Location(page),
                        f"pytest exited {code} with no fence failed (a collection error? see its output above)",
                    )
                )
            else:
                problems.append(
                    Problem(
                        Location(page),
                        f"pytest exited {code} without a record of this page's fences "
                        "(see its output above; did "
                        f"{FENCE_PLUGIN} load?)",
                    )
                )
        self.stop()
        for p in problems:
            print(p, file=sys.stderr)
        annotate(problems, "Python fence failed")
        if problems:
            raise StageFailed(f"{len(problems)} Python fence problem(s) in docs/")
        from verified_docs.site.guard import save_executed

        save_executed(self.root / FENCES, {x for run in self.runs.values() for x in run.executed})
        if not self.pages:
            print("[fences] no page has a Python fence", flush=True)
            return
        print(
            f"[fences] {len(self._futures)} page(s) run, {self.cached} unchanged since their fences passed; "
            f"done in {time.perf_counter() - self.start:.2f}s (alongside verify)",
            flush=True,
        )

    def stop(self) -> None:
        """Kill the pages' pytest processes still running; idempotent."""
        with self._lock:
            self._stopped = True
            for proc in self._procs:
                if proc.poll() is None:
                    proc.kill()
        self._pool.shutdown(wait=True, cancel_futures=True)
        shutil.rmtree(self._tmp, ignore_errors=True)


class _WarningAnnotations(logging.Handler):
    """Prints each WARNING record of MkDocs as a workflow command (strict mode fails the build
    on it); an error is annotated where it is raised (the render stage names its page and line)."""

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno == logging.WARNING:
            print(workflow_command("mkdocs --strict warning", record.getMessage()), flush=True)


_warning_annotations = _WarningAnnotations()


@_stage("render")
def render(root: Path):
    """Render ``docs/`` with this build's ledger into ``build/rendered/`` (see
    :func:`~verified_docs.render.pages.render_tree`). Raises :class:`SourceError` at every page and
    line that cannot be rendered, :class:`StageFailed` when the Mermaid script cannot be had."""
    from verified_docs.render import vendor
    from verified_docs.render.pages import RENDERED, render_tree

    try:
        tree = render_tree(root, root / ledger_mod.DEFAULT_LEDGER, root / RENDERED, root / PARTIAL)
    except vendor.VendorError as e:
        raise StageFailed(str(e)) from None
    print(
        f"render: {len(tree.pages)} page(s) into {display_path(tree.docs_dir)}, {tree.written} file(s) written, "
        f"{tree.removed} removed; {tree.edit_links}",
        flush=True,
    )
    return tree


def generate(generator: str, tree) -> None:
    """Build the rendered tree with ``generator`` (:mod:`verified_docs.site.generator`), timed under its name.
    Raises :class:`StageFailed` when it fails or warns."""
    from verified_docs.site.generator import GeneratorFailed, build

    @_stage(generator)
    def run() -> None:
        try:
            build(generator, tree.config, tree.site_dir)
        except GeneratorFailed as e:
            raise StageFailed(str(e)) from None
        finally:
            log.removeHandler(_warning_annotations)

    log = logging.getLogger("mkdocs")
    if on_github_actions():  # a strict build's warnings, annotated (its errors are, where raised)
        log.addHandler(_warning_annotations)
    run()


@_stage("guard")
def guard(root: Path, site_dir: Path) -> None:
    """Fail when a code block of the built site did not run in this build, or a directive of
    ``docs/`` did not come out as its block."""
    from verified_docs.site.guard import (
        check_site,
        directive_problems,
        load_executed,
        published_source_problems,
        unrendered_claims,
    )

    ledger = ledger_mod.load(root / ledger_mod.DEFAULT_LEDGER)
    problems, checked = check_site(site_dir, root / "docs", ledger.verified_hashes(), load_executed(root / FENCES))
    problems += published_source_problems(site_dir, ledger.passed_files())
    problems += directive_problems(site_dir, root / "docs")
    problems += unrendered_claims(site_dir, root / "docs")
    for p in problems:
        print(p, file=sys.stderr)
    annotate(problems, "guard: not verified in this build")
    print(f"guard: {checked} code blocks checked, {len(problems)} problem(s)")
    if checked == 0:
        raise StageFailed(f"{site_dir}: no code blocks at all; did the render stage run?")
    if problems:
        raise StageFailed(
            f"{len(problems)} problem(s) in the built site: code that did not run or directives that did not come out"
        )


def project_root_problem(root: Path) -> str | None:
    """What is wrong with ``root`` as a project root (a directory holding ``mkdocs.yml``: every
    path of the build is resolved from it), or None."""
    if not root.exists():
        return "not a project root: expected a directory holding mkdocs.yml, got no such file or directory"
    if not root.is_dir():
        return "not a project root: expected a directory holding mkdocs.yml, got a file"
    if not (root / "mkdocs.yml").is_file():
        return "not a project root: expected a directory holding mkdocs.yml, got a directory without one"
    return None


def _go_offline(root: Path) -> bool:
    """Fetch the one thing the build downloads (the Mermaid script, when missing), then move the
    whole build into a network namespace with only loopback (:mod:`verified_docs.run.netns`): verification, the
    fences and every snippet's processes. False (the reason printed) when that failed halfway."""
    from verified_docs.render import vendor
    from verified_docs.run import netns

    try:
        vendor.ensure(vendor.MERMAID, root)
    except vendor.VendorError:
        pass  # the render stage reports it (and stops the build)
    try:
        warning = netns.contain()
    except netns.NetnsError as e:
        print(e, file=sys.stderr)
        return False
    if warning:
        print(warning, file=sys.stderr)
    return True


def main(argv: list[str] | None = None, *, offline: bool | None = None) -> int:
    """Build and publish the site; exit 0, 1 when a stage failed, 2 on malformed input.
    ``offline`` (default: True when ``argv`` is None, i.e. this is the process's own command
    line) moves the process into a network namespace first (:func:`_go_offline`)."""
    parser = argparse.ArgumentParser(prog="verified_docs build", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--root",
        type=Path,
        default=None,
        help="project root, a directory holding mkdocs.yml (default: the current directory)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="run every scenario and fence even when unchanged since they passed (always so under CI)",
    )
    parser.add_argument(
        "--jobs", "-j", type=int, default=None, help="scenarios verified at once (default: two per CPU core)"
    )
    parser.add_argument(
        "--languages",
        default=",".join(LANGUAGES),
        help=f"comma-separated languages to verify (known: {', '.join(LANGUAGES)})",
    )
    parser.add_argument(
        "--generator",
        choices=GENERATORS,
        default=DEFAULT_GENERATOR,
        help=f"the site generator (default: {DEFAULT_GENERATOR})",
    )
    args = parser.parse_args(argv)
    languages = tuple(x.strip() for x in args.languages.split(",") if x.strip())
    unknown = [x for x in languages if x not in LANGUAGES]
    if unknown or not languages:
        parser.error(f"unknown language(s): {', '.join(unknown) or '(none given)'}; known: {', '.join(LANGUAGES)}")
    root = (args.root or Path.cwd()).resolve()
    bad = project_root_problem(root)
    if bad:
        print(
            f"{args.root or root}: {bad}" + ("" if args.root else " (no --root given: the current directory)"),
            file=sys.stderr,
        )
        return 2
    try:
        tmproot.enter()
    except tmproot.EnvironmentProblem as e:
        print(f"verified_docs: {e}", file=sys.stderr)
        return 2
    print(f"[build] {reproducible.set_source_date_epoch(root)}", flush=True)
    if (argv is None if offline is None else offline) and not _go_offline(root):
        return 2
    force = args.force or bool(os.environ.get("CI"))
    start = time.perf_counter()
    fences = Fences(root, force=force)
    try:
        verify(root, languages, force=force, jobs=args.jobs)
        fences.finish()
        tree = render(root)
        generate(args.generator, tree)
        guard(root, tree.site_dir)
    except SourceError as e:
        print(e, file=sys.stderr)
        annotate(e.problems, "bad input")
        return 2
    except StageFailed as e:
        print(f"build stopped: {e}; site/ left as it was", file=sys.stderr)
        annotate_text("build stopped", f"{e}; site/ left as it was")
        return 1
    finally:
        fences.stop()
    from verified_docs.site.publish import swap_in

    swap_in(root / PARTIAL, root / "site")
    print(f"site built with {args.generator} in {root / 'site'} ({time.perf_counter() - start:.1f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
