"""Build the site in one process: verify, run the docs' fences, build strictly, guard, publish.

``python -m verified_docs build`` (what ``nox -s docs`` runs). Each stage stops the build on
failure, so ``site/`` is only ever replaced by a site whose every code block ran:

1. verify every scenario, answering unchanged ones from the result cache (:mod:`.cache`);
2. run the Python fences written in ``docs/`` under pytest-markdown-docs (alongside step 1),
   unless the docs, the test plugin, toolnexus and the machinery are as when they last passed;
3. ``mkdocs build --strict`` into ``build/site.partial`` (in this process: a no-op rebuild
   should cost about a bare ``mkdocs build``, and each extra interpreter start-up adds to it);
4. the guard: every code block in the built site is a verified section, a verified output or
   a fence that ran;
5. swap the partial site into ``site/``.
"""
from __future__ import annotations

import argparse
import functools
import hashlib
import logging
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from . import cache as cache_mod
from . import ledger as ledger_mod
from .errors import SourceError
from .golden import write_atomic
from .runner.languages import LANGUAGES
from .scenario import discover_project

FENCES = Path("build") / "executed-fences.json"
FENCE_CACHE = Path("build") / "cache" / "fences"
PARTIAL = Path("build") / "site.partial"


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
    ledger_mod.save(ledger_mod.build(verdicts, root), root / ledger_mod.DEFAULT_LEDGER)
    print(f"verify: {len(verdicts) - len(failed)} of {len(verdicts)} runs passed; "
          f"{len(cached)} of {len(by_scenario)} scenarios unchanged since they passed")
    if failed:
        raise StageFailed(f"{len(failed)} run(s) failed verification")


def _fences_key(root: Path) -> str:
    h = hashlib.sha256((str(root) + cache_mod.machinery_digest() + cache_mod.environment_digest()).encode())
    for path in [root / "conftest.py", root / "pyproject.toml", *cache_mod.files_under(root / "docs")]:
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


class Fences:
    """The Python fences of ``docs/``, run under pytest-markdown-docs in a child process that
    works alongside verification (they share nothing), recording which ran for the guard.
    Skipped when a run with the same key (docs, test plugin, toolnexus, machinery) passed."""

    def __init__(self, root: Path, *, force: bool) -> None:
        self.root, self.key = root, _fences_key(root)
        self.cached = root / FENCE_CACHE / f"{self.key}.json"
        self.proc: subprocess.Popen | None = None
        self.start = time.perf_counter()
        if force or not self.cached.is_file():
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "pytest", "docs", "-q", "-p", "no:cacheprovider"], cwd=root,
                env={**os.environ, "VERIFIED_DOCS_FENCES_OUT": str(root / FENCES)},
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def finish(self) -> None:
        """Wait for the fences; raises :class:`StageFailed` when one failed."""
        if self.proc is None:
            write_atomic(self.root / FENCES, self.cached.read_text(encoding="utf-8"))
            print("[fences] docs unchanged since their fences passed", flush=True)
            return
        output, _ = self.proc.communicate()
        print(output, end="")
        if self.proc.returncode != 0:
            raise StageFailed(f"the docs' Python fences failed (pytest exit {self.proc.returncode})")
        write_atomic(self.cached, (self.root / FENCES).read_text(encoding="utf-8"))
        print(f"[fences] done in {time.perf_counter() - self.start:.2f}s (alongside verify)", flush=True)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@_stage("mkdocs")
def build_site(root: Path, site_dir: Path) -> None:
    """``mkdocs build --strict`` of ``root/mkdocs.yml`` into ``site_dir``. Raises
    :class:`StageFailed` on a warning (strict) or a build error."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    log = logging.getLogger("mkdocs")
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    shutil.rmtree(site_dir, ignore_errors=True)
    try:
        config = load_config(str(root / "mkdocs.yml"), strict=True, site_dir=str(site_dir))
        config.plugins.on_startup(command="build", dirty=False)
        try:
            build(config)
        finally:
            config.plugins.on_shutdown()
    except MkDocsException as e:
        raise StageFailed(f"mkdocs build --strict failed: {e}") from None
    finally:
        log.removeHandler(handler)


@_stage("guard")
def guard(root: Path, site_dir: Path) -> None:
    """Fail when a code block of the built site did not run in this build."""
    from .guard import check_site, load_executed, published_source_problems

    ledger = ledger_mod.load(root / ledger_mod.DEFAULT_LEDGER)
    problems, checked = check_site(site_dir, root / "docs", ledger.verified_hashes(), load_executed(root / FENCES))
    problems += published_source_problems(site_dir, ledger.passed_files())
    for p in problems:
        print(p, file=sys.stderr)
    print(f"guard: {checked} code blocks checked, {len(problems)} problem(s)")
    if checked == 0:
        raise StageFailed(f"{site_dir}: no code blocks at all; is the hook rendering examples?")
    if problems:
        raise StageFailed(f"{len(problems)} code block(s) in the site did not run")


def main(argv: list[str] | None = None) -> int:
    """Build and publish the site; exit 0, 1 when a stage failed, 2 on malformed input."""
    parser = argparse.ArgumentParser(prog="verified_docs build", description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="project root (default: cwd)")
    parser.add_argument("--force", action="store_true",
                        help="run every scenario and fence even when unchanged since they passed (always so under CI)")
    parser.add_argument("--jobs", "-j", type=int, default=None, help="scenarios verified at once (default: cores)")
    parser.add_argument("--languages", default=",".join(LANGUAGES),
                        help=f"comma-separated languages to verify (known: {', '.join(LANGUAGES)})")
    args = parser.parse_args(argv)
    languages = tuple(x.strip() for x in args.languages.split(",") if x.strip())
    unknown = [x for x in languages if x not in LANGUAGES]
    if unknown or not languages:
        parser.error(f"unknown language(s): {', '.join(unknown) or '(none given)'}; known: {', '.join(LANGUAGES)}")
    root = args.root.resolve()
    force = args.force or bool(os.environ.get("CI"))
    start = time.perf_counter()
    fences = Fences(root, force=force)
    try:
        verify(root, languages, force=force, jobs=args.jobs)
        fences.finish()
        build_site(root, root / PARTIAL)
        guard(root, root / PARTIAL)
    except SourceError as e:
        print(e, file=sys.stderr)
        return 2
    except StageFailed as e:
        print(f"build stopped: {e}; site/ left as it was", file=sys.stderr)
        return 1
    finally:
        fences.stop()
    from .publish import swap_in

    swap_in(root / PARTIAL, root / "site")
    print(f"site built in {root / 'site'} ({time.perf_counter() - start:.1f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
