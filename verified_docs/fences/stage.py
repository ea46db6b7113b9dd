"""The fence stage: the Python fences written in ``docs/``, each page's run under
pytest-markdown-docs in a pytest process of its own, alongside verification.

In: ``docs/`` (and every file a page's fences read). Out: ``build/executed-fences.json``, the
fences that ran (the guard checks the built site against it); a page's pass is remembered under
``build/cache/fences/`` while everything it read is unchanged. :class:`Fences` is called by
``build`` and ``serve``; :mod:`verified_docs.fences` holds the records and the pytest plugin.
"""

from __future__ import annotations

import hashlib
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
from verified_docs.errors import Location, Problem, StageFailed, annotate, display_path
from verified_docs.fences.run import PageRun, first_change

FENCES = Path("build") / "executed-fences.json"
FENCE_CACHE = Path("build") / "cache" / "fences"


# A line that may open a Python fence: pages without one are not parsed (a rebuild with nothing
# changed reads every page, and parsing them all costs more than the rest of this stage).
_MAYBE_PYTHON_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*py", re.M)


def fence_pages(docs: Path) -> tuple[list[Path], list[Path]]:
    """The pages under ``docs`` that hold a top-level Python fence (absolute paths, sorted), and
    apart from them those of such pages with a code fence never closed, which are not run:
    pytest would run the rest of the page as the fence's code and report a syntax error far
    below the fault, while the render stage refuses the page at the fence's opening line."""
    from verified_docs.render.directive import fences_closed
    from verified_docs.site.guard import page_fences  # markdown-it-py: the docs extra

    texts = {p: p.read_text(encoding="utf-8") for p in sorted(docs.rglob("*.md"))}
    candidates = [p for p, text in texts.items() if _MAYBE_PYTHON_FENCE.search(text)]
    pages = sorted({f.path for page in candidates for f in page_fences(page)})
    return [p for p in pages if fences_closed(texts[p])], [p for p in pages if not fences_closed(texts[p])]


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
    and library globals too, not only what :class:`~verified_docs.fences.run.ProcessState` can
    put back); what it costs is starting pytest and importing toolnexus once per page, which
    runs alongside verification and so adds little to a build's wall time.

    Why remember rather than always run: checking a remembered pass costs hashing what its
    fences read (mostly the packages toolnexus imports, shared between pages), far less than
    running them. Each child records what it read, so a change to any of it (a data file next
    to the page, a module of this project, an upgraded package) runs the page again; the
    standard library is left to the interpreter part of the key. Not seen: directory listings,
    environment variables and what a fence's own subprocesses read."""

    def __init__(self, root: Path, *, force: bool) -> None:
        self.root, self.start = root, time.perf_counter()
        self.pages, self.unclosed = fence_pages(root / "docs")
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
        for page in self.unclosed:  # the problem itself is the render stage's, printed once
            print(f"[fences] {display_path(page)} not run: a fence on it is left open", flush=True)
        if not self.pages:
            if not self.unclosed:
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
