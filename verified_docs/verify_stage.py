"""The verify stage, for every entry point that verifies the project: scenarios in, every run's
verdict out, the ledger written.

``build`` (``nox -s docs``), ``verify`` (``--only``, ``--update-outputs``, ``--report``),
``serve``, ``try`` and the bench call :func:`verify_and_record`; each finds its scenarios and
prints its own lines, while what runs, what the result cache answers and what the ledger then
says are decided here only. ``try`` passes one scenario cut to the runs up to the chosen one,
in one language, with no cache and no ledger.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from verified_docs import cache as cache_mod
from verified_docs import ledger as ledger_mod
from verified_docs.errors import StageFailed, UsageError, annotate
from verified_docs.run.languages import LANGUAGES
from verified_docs.scenario.records import Scenario
from verified_docs.verify.scenarios import verify_all
from verified_docs.verify.verdict import RunVerdict


def add_options(parser: argparse.ArgumentParser) -> None:
    """The options of every command that verifies: ``--languages`` (read it with
    :func:`parse_languages`) and ``--jobs``."""
    parser.add_argument(
        "--languages",
        default=",".join(LANGUAGES),
        help=f"comma-separated languages to verify (known: {', '.join(LANGUAGES)})",
    )
    parser.add_argument(
        "--jobs", "-j", type=int, default=None, help="scenarios verified at once (default: two per CPU core)"
    )


def parse_languages(text: str) -> tuple[str, ...]:
    """The languages named in a comma-separated ``--languages`` value. Raises
    :class:`UsageError` (one line, listing the known ones) for an unknown one or none."""
    languages = tuple(x.strip() for x in text.split(",") if x.strip())
    unknown = [x for x in languages if x not in LANGUAGES]
    if unknown or not languages:
        raise UsageError(f"unknown language(s): {', '.join(unknown) or '(none given)'}; known: {', '.join(LANGUAGES)}")
    return languages


def forced(force: bool) -> bool:
    """Whether every scenario runs, none answered from the result cache: when asked
    (``force``) and always under CI (any non-empty ``CI`` variable, as CI services set it)."""
    return force or bool(os.environ.get("CI"))


def discover(root: Path, *, force: bool) -> list[Scenario]:
    """Every scenario of the project at ``root``, each parsed ``scenario.yaml`` read from disk
    while its folder is unchanged (:class:`~verified_docs.cache.ParsedScenarios`), unless
    :func:`forced`. Raises :class:`~verified_docs.errors.SourceError` as
    :func:`~verified_docs.scenario.load.discover_project` does."""
    from verified_docs.scenario.load import discover_project

    parsed = None if forced(force) else cache_mod.ParsedScenarios.open(root / cache_mod.PARSED_DIR)
    return discover_project(root, parsed.load if parsed else None)


def result_cache(root: Path, folder: Path = cache_mod.DEFAULT_DIR, *, force: bool) -> cache_mod.ResultCache | None:
    """The result cache in ``root / folder``, or None when :func:`forced`."""
    return None if forced(force) else cache_mod.ResultCache.open(root / folder)


def go_offline() -> bool:
    """Move this process into a network namespace with only loopback (:mod:`verified_docs.run.netns`),
    so every snippet it runs is offline; a warning is printed to stderr when none can be made.
    False (the reason printed) when making it failed halfway."""
    from verified_docs.run import netns

    try:
        warning = netns.contain()
    except netns.NetnsError as e:
        print(e, file=sys.stderr)
        return False
    if warning:
        print(warning, file=sys.stderr)
    return True


@dataclass(frozen=True)
class Verified:
    """One verification: ``by_scenario`` (name -> its verdicts, in the order the scenarios were
    given), the names of those answered from the result cache, and the ledger of every verdict."""

    by_scenario: dict[str, list[RunVerdict]]
    cached: frozenset[str]
    ledger: ledger_mod.Ledger

    @property
    def verdicts(self) -> list[RunVerdict]:
        return [v for vs in self.by_scenario.values() for v in vs]

    @property
    def failed(self) -> list[RunVerdict]:
        return [v for v in self.verdicts if not v.passed]

    @property
    def unchanged(self) -> str:
        """``N of M scenarios unchanged since they passed`` (answered from the result cache)."""
        return f"{len(self.cached)} of {len(self.by_scenario)} scenarios unchanged since they passed"

    def ran(self) -> dict[str, float]:
        """Seconds each scenario run this time (not answered from the cache) took, its runs summed."""
        return {
            n: round(sum(v.duration_s for v in vs), 3) for n, vs in self.by_scenario.items() if n not in self.cached
        }

    def report_failures(self) -> None:
        """Print each failed run's report to stderr, and annotate it under GitHub Actions."""
        for v in self.failed:
            print(v.report(), file=sys.stderr)
            annotate(v.problems, f"verification failed: {v.test_id}")

    def raise_if_failed(self) -> None:
        """Raises :class:`StageFailed` (``N run(s) failed verification``) when a run failed."""
        if self.failed:
            raise StageFailed(f"{len(self.failed)} run(s) failed verification")


def verify_and_record(
    root: Path,
    scenarios: list[Scenario],
    languages: tuple[str, ...] | None = None,
    *,
    cache: cache_mod.ResultCache | None,
    ledger_path: Path | None = ledger_mod.DEFAULT_LEDGER,
    partial: bool = False,
    update_outputs: bool = False,
    jobs: int | None = None,
    warm: bool = True,
    estimates: dict[str, float] | None = None,
) -> Verified:
    """Verify ``scenarios`` (their files below ``root``) in ``languages`` (None: each one's
    own), ``jobs`` at a time, the longest by ``estimates`` first (default: the seconds the
    ledger at ``ledger_path`` recorded), ``warm`` as :func:`~verified_docs.verify.verdict.verify_all`.
    A scenario whose passed verdicts ``cache`` holds for its current content is not run
    (``cache=None`` runs all). ``update_outputs`` runs all too (it must see every output): it
    rewrites the golden files of runs whose only problem is drifted output, after removing what
    an interrupted rewrite left under ``snippets/`` (each removal printed).

    Then writes the ledger of every verdict, cached or fresh, to ``root / ledger_path`` (None:
    none written); ``partial`` keeps the earlier ledger's entries of the scenarios not given
    (``verify --only``). Never raises for a failing run: its problems are in its verdict."""
    ledger_file = root / ledger_path if ledger_path is not None else None
    if estimates is None:
        estimates = ledger_mod.durations(ledger_file) if ledger_file is not None else {}
    if update_outputs:
        from verified_docs.files import remove_stale_temporaries

        for tmp in remove_stale_temporaries(root / "snippets"):
            print(f"removed {tmp.relative_to(root)} (left by an interrupted rewrite)", flush=True)
        by_scenario = verify_all(scenarios, languages, update_outputs=True, jobs=jobs, warm=warm, estimates=estimates)
        cached: set[str] = set()
    else:
        by_scenario, cached = cache_mod.verify_cached(
            scenarios, languages, cache, jobs=jobs, estimates=estimates, warm=warm
        )
    ledger = ledger_mod.build([v for vs in by_scenario.values() for v in vs], root)
    if ledger_file is not None:
        if partial:
            ledger = ledger_mod.merge(_earlier(ledger_file), ledger, {s.name for s in scenarios})
        ledger_mod.save(ledger, ledger_file)
    return Verified(by_scenario, frozenset(cached), ledger)


def _earlier(path: Path) -> ledger_mod.Ledger | None:
    try:
        return ledger_mod.load(path)
    except (OSError, ValueError, KeyError):
        return None
