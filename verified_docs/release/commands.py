"""The release commands of ``python -m verified_docs``: ``matrix-plan``, ``matrix`` and
``release-alarm`` (what ``nox -s release-matrix`` and the new-release workflow run).

Each prints its result and every problem, and returns the exit status: 0, 1 when the matrix or
the alarm found something, 2 on input it cannot read.
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import sys
from pathlib import Path
from typing import Callable

from verified_docs.errors import SourceError, annotate, annotate_text
from verified_docs.release import matrix
from verified_docs.render import release_matrix
from verified_docs.run.languages import LANGUAGES
from verified_docs.scenario.load import discover_project


def add_parsers(sub, with_root: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add ``matrix-plan``, ``matrix`` and ``release-alarm`` to the subparsers ``sub``;
    ``with_root`` adds the ``--root`` option every command shares."""
    planner = sub.add_parser("matrix-plan", help="list the releases the matrix measures, and which are unchanged")
    with_root(planner)
    planner.add_argument("--reports", type=Path, required=True, help="folder of the per-release reports")
    planner.add_argument("--only", metavar="GLOB", default="*", help="plan for these scenarios only (fnmatch)")
    combine = sub.add_parser("matrix", help="combine per-release reports into the release matrix and check its rows")
    combine.add_argument("reports", type=Path, nargs="+", help="reports written by verify --report")
    with_root(combine)
    combine.add_argument(
        "--merge",
        action="store_true",
        help="put the reports' scenarios into the matrix file, keeping its other rows (for --only)",
    )
    combine.add_argument(
        "--write", type=Path, default=release_matrix.MATRIX_FILE, help="matrix file to write, under root"
    )
    alarm = sub.add_parser(
        "release-alarm",
        help="compare two releases' reports: the scenarios a new toolnexus "
        "changes, and the pages and claims resting on them (exit 1 if any)",
    )
    alarm.add_argument("--pinned", type=Path, required=True, help="report of the pinned release (verify --report)")
    alarm.add_argument("--newest", type=Path, required=True, help="report of the release to compare")
    with_root(alarm)
    alarm.add_argument(
        "--summary",
        type=Path,
        default=None,
        help="append a Markdown table here (default: $GITHUB_STEP_SUMMARY when set)",
    )


def _release_alarm(args: argparse.Namespace) -> int:
    from verified_docs.release import alarm

    root = args.root.resolve()
    try:
        pinned, newest = matrix.read_report(args.pinned), matrix.read_report(args.newest)
        pages, claims = alarm.citations(root / "docs")
    except (SourceError, OSError, ValueError, KeyError) as e:
        print(f"release-alarm: {e}", file=sys.stderr)
        return 2
    found = alarm.changes(pinned, newest)
    print(alarm.text(found, pinned["toolnexus"], newest["toolnexus"], pages, claims))
    summary = args.summary or (
        Path(os.environ["GITHUB_STEP_SUMMARY"]) if os.environ.get("GITHUB_STEP_SUMMARY") else None
    )
    if summary is not None:
        with open(summary, "a", encoding="utf-8") as out:
            out.write(alarm.summary(found, pinned["toolnexus"], newest["toolnexus"], pages, claims))
    if found:
        annotate_text(
            "new toolnexus release",
            f"toolnexus {newest['toolnexus']} changes {len(found)} scenario(s): "
            + ", ".join(c.scenario for c in found),
        )
    return 1 if found else 0


def _matrix_plan(args: argparse.Namespace) -> int:
    """Print ``<release> run`` or ``<release> cached <verify seconds>``, one line per release."""
    root = args.root.resolve()
    try:
        scenarios = [s for s in discover_project(root) if fnmatch.fnmatch(s.name, args.only)]
        if not scenarios:
            raise SourceError.at(root, 0, f"no scenario matches {args.only!r} (under snippets/ or examples/)")
        planned = matrix.plan(root, scenarios, args.reports, tuple(LANGUAGES))
    except (SourceError, OSError) as e:
        print(e, file=sys.stderr)
        return 2
    for p in planned:
        print(f"{p.release} cached {p.verify_s:.2f}" if p.cached else f"{p.release} run")
    return 0


def _matrix(args: argparse.Namespace) -> int:
    root = args.root.resolve()
    try:
        scenarios = discover_project(root)
        measured = matrix.combine([matrix.read_report(p) for p in args.reports])
        expected = matrix.expected_releases(root)
        results = matrix.merge(release_matrix.load(root / args.write), measured) if args.merge else measured
    except (SourceError, FileNotFoundError, ValueError, KeyError) as e:
        print(e, file=sys.stderr)
        return 2
    matrix.save(results, root / args.write)
    shown = release_matrix.Matrix(results.releases, measured.scenarios) if args.merge else results
    print(matrix.table(shown))
    coverage = matrix.coverage_problems(results, expected, root / args.write)
    # With --merge, only the rows just measured are this run's business; the tests job holds
    # the whole matrix to every scenario.
    checked = [s for s in scenarios if not args.merge or s.name in measured.scenarios]
    problems = matrix.row_problems(results, checked)
    for p in coverage + problems:
        print(p, file=sys.stderr)
    annotate(coverage + problems, "release matrix")
    uneven = [n for n in shown.scenarios if results.fails_after_since(n)]
    since = "; ".join(f"{n} since {results.measured_since(n) or 'never'}" for n in measured.scenarios)
    print(
        f"release matrix: {len(results.releases)} releases ({release_matrix.span(results.releases)}) x "
        f"{len(shown.scenarios)} scenario(s){' measured: ' + since if args.merge else ''}; "
        f"{len(problems)} without a current row; "
        f"{len(uneven)} failing again after their first pass{': ' + ', '.join(uneven) if uneven else ''}; "
        f"written to {args.write}"
    )
    return 1 if problems or coverage else 0


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "matrix-plan": _matrix_plan,
    "matrix": _matrix,
    "release-alarm": _release_alarm,
}
