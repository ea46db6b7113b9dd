"""Command line: ``python -m verified_docs verify [--update-outputs]``, ``try <scenario>``, ``build``, ``serve``, ...

Used by the nox sessions; prints one line per run and every problem, and exits 1 when any run
failed or 2 on bad input (a malformed scenario, an unknown language).
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import signal
import sys
import threading
import time
from pathlib import Path

from verified_docs import cache as cache_mod
from verified_docs import ledger as ledger_mod
from verified_docs.errors import SourceError, annotate, annotate_text
from verified_docs.release import matrix
from verified_docs.render import release_matrix
from verified_docs.run import tmproot
from verified_docs.run.languages import LANGUAGES
from verified_docs.scenario.load import discover_project
from verified_docs.verify.scenarios import verify_all


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="verified_docs", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    verify = sub.add_parser("verify", help="run every scenario and write the ledger")
    verify.add_argument("--root", type=Path, default=Path.cwd(), help="project root (default: cwd)")
    verify.add_argument("--ledger", type=Path, default=ledger_mod.DEFAULT_LEDGER, help="ledger path, under root")
    verify.add_argument(
        "--languages",
        default=",".join(LANGUAGES),
        help=f"comma-separated languages to verify (known: {', '.join(LANGUAGES)})",
    )
    verify.add_argument(
        "--only",
        metavar="GLOB",
        default="*",
        help="verify only scenarios whose name matches (fnmatch), e.g. 'suspension/answer-*'",
    )
    verify.add_argument(
        "--jobs", "-j", type=int, default=None, help="scenarios verified at once (default: two per CPU core)"
    )
    verify.add_argument(
        "--report", type=Path, default=None, help="also write a JSON report (scenario -> passed) for the release matrix"
    )
    verify.add_argument(
        "--update-outputs",
        action="store_true",
        help="rewrite golden files of runs whose only problem is drifted output",
    )
    verify.add_argument(
        "--force",
        action="store_true",
        help="run every scenario even when an identical one passed before (always so under CI)",
    )
    verify.add_argument("--cache", type=Path, default=cache_mod.DEFAULT_DIR, help="result cache folder, under root")
    planner = sub.add_parser("matrix-plan", help="list the releases the matrix measures, and which are unchanged")
    planner.add_argument("--root", type=Path, default=Path.cwd(), help="project root (default: cwd)")
    planner.add_argument("--reports", type=Path, required=True, help="folder of the per-release reports")
    combine = sub.add_parser("matrix", help="combine per-release reports into the release matrix and check 'since'")
    combine.add_argument("reports", type=Path, nargs="+", help="reports written by verify --report")
    combine.add_argument("--root", type=Path, default=Path.cwd(), help="project root (default: cwd)")
    combine.add_argument(
        "--write", type=Path, default=release_matrix.MATRIX_FILE, help="matrix file to write, under root"
    )
    guard = sub.add_parser(
        "guard",
        help="fail on any code block in a built site that did not run in this build, "
        "or any directive that did not come out",
    )
    guard.add_argument("--site", type=Path, required=True, help="the built site folder")
    guard.add_argument("--root", type=Path, default=Path.cwd(), help="project root (default: cwd)")
    guard.add_argument("--ledger", type=Path, default=ledger_mod.DEFAULT_LEDGER, help="ledger path, under root")
    guard.add_argument(
        "--fences",
        type=Path,
        required=True,
        help="executed fences, as the build writes them (build/executed-fences.json)",
    )
    mutation = sub.add_parser("mutate", help="mutation testing: do the scenarios catch careless edits?")
    mutation.add_argument("--root", type=Path, default=Path.cwd(), help="project root (default: cwd)")
    mutation.add_argument("--only", metavar="GLOB", default="*", help="scenarios to mutate (fnmatch)")
    mutation.add_argument("--threshold", type=float, default=90.0, help="minimum total score, percent")
    mutation.add_argument("--jobs", "-j", type=int, default=None, help="mutants verified at once")
    tryit = sub.add_parser(
        "try",
        help="run one example offline against its scripted model, or serve the model for your own copy",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Run an example's programs against the scripted mock model exactly as the build does\n"
        "(same script, environment, arguments and checks) in a fresh temporary folder, and print\n"
        "what they printed: the output shown on the example's page. Notes go to stderr.\n"
        "Exit 0 when every run passed the build's checks, 1 when one failed, 2 for an unknown name.",
        epilog="examples:\n"
        "  python -m verified_docs try suspension/answer-later            # every run, every output\n"
        "  python -m verified_docs try answer-later --run resume          # the runs before it first, then\n"
        "                                                                 # only resume's output\n"
        "  python -m verified_docs try answer-later --run park --serve    # the model only, for your copy:\n"
        "      set the two printed variables (OPENAI_BASE_URL, OPENAI_API_KEY), then run your park.py;\n"
        "      a serve answers one pass of its run (start it again for another), and a scenario with\n"
        "      several runs needs --run. Run labels go to stderr, outputs to stdout.",
    )
    tryit.add_argument("scenario", help="the example's scenario: suspension/<name> (or just <name>) or examples/<name>")
    tryit.add_argument(
        "--run",
        metavar="NAME",
        default=None,
        help="only this run's output (the runs before it run first: they share a working directory)",
    )
    tryit.add_argument(
        "--serve",
        action="store_true",
        help="start only the scripted model of the run, print the two environment variables to "
        "set, and wait until Ctrl-C",
    )
    tryit.add_argument("--port", type=int, default=0, help="with --serve: the port on 127.0.0.1 (default: a free one)")
    tryit.add_argument("--root", type=Path, default=Path.cwd(), help="project root (default: cwd)")
    alarm = sub.add_parser(
        "release-alarm",
        help="compare two releases' reports: the scenarios a new toolnexus "
        "changes, and the pages and claims resting on them (exit 1 if any)",
    )
    alarm.add_argument("--pinned", type=Path, required=True, help="report of the pinned release (verify --report)")
    alarm.add_argument("--newest", type=Path, required=True, help="report of the release to compare")
    alarm.add_argument("--root", type=Path, default=Path.cwd(), help="project root (default: cwd)")
    alarm.add_argument(
        "--summary",
        type=Path,
        default=None,
        help="append a Markdown table here (default: $GITHUB_STEP_SUMMARY when set)",
    )
    rend = sub.add_parser(
        "render",
        help="render docs/ with the ledger into a tree of plain Markdown and its "
        "generated mkdocs.yml; with --generator, also build that tree",
    )
    rend.add_argument("--root", type=Path, default=Path.cwd(), help="project root (default: cwd)")
    rend.add_argument("--ledger", type=Path, default=ledger_mod.DEFAULT_LEDGER, help="ledger path, under root")
    rend.add_argument(
        "--out",
        type=Path,
        default=None,
        help="folder of the rendered tree (default: build/rendered under root); the site goes to OUT/site",
    )
    rend.add_argument(
        "--generator", default=None, help="also build the tree: mkdocs or zensical (no guard, no publish)"
    )
    sub.add_parser(
        "build",
        add_help=False,
        help="verify, run the docs' fences, build strictly, guard, publish (python -m verified_docs build --help)",
    )
    sub.add_parser(
        "serve",
        add_help=False,
        help="serve the site and verify again on every save (python -m verified_docs serve --help)",
    )
    args, rest = parser.parse_known_args(argv)
    try:
        tmproot.enter()  # every temporary folder of this run under one root, removed even after a kill
    except tmproot.EnvironmentProblem as e:
        print(f"verified_docs: {e}", file=sys.stderr)
        return 2
    if args.command not in ("build", "serve") and rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    offline = argv is None  # a process of its own (`python -m verified_docs`), not a call from a test
    if offline and (args.command in ("verify", "mutate") or (args.command == "try" and not args.serve)):
        # Snippets run with only loopback (verified_docs.run.netns); never `try --serve`, whose model
        # must be reachable from the host. Only a whole process moves: one thread of a test
        # process would leave its other threads (the warm worker's clients) outside.
        from verified_docs.run import netns

        try:
            warning = netns.contain()
        except netns.NetnsError as e:
            print(e, file=sys.stderr)
            return 2
        if warning:
            print(warning, file=sys.stderr)
    if args.command == "build":
        from verified_docs.build import main as build_main

        return build_main(rest, offline=offline)
    if args.command == "serve":
        # Not in the network namespace: the preview it serves must be reachable from the host.
        from verified_docs.serve.author_loop import main as serve_main

        return serve_main(rest)
    if args.command == "mutate":
        return _mutate(args)
    if args.command == "matrix":
        return _matrix(args)
    if args.command == "matrix-plan":
        return _matrix_plan(args)
    if args.command == "guard":
        return _guard(args)
    if args.command == "try":
        return _try(args)
    if args.command == "release-alarm":
        return _release_alarm(args)
    if args.command == "render":
        return _render(args)

    languages = tuple(x.strip() for x in args.languages.split(",") if x.strip())
    unknown = [x for x in languages if x not in LANGUAGES]
    if unknown:
        print(f"unknown language(s): {', '.join(unknown)}; known: {', '.join(LANGUAGES)}", file=sys.stderr)
        return 2
    root = args.root.resolve()
    try:
        scenarios = discover_project(root)
    except SourceError as e:
        print(e, file=sys.stderr)
        annotate(e.problems, "bad input")
        return 2
    scenarios = [s for s in scenarios if fnmatch.fnmatch(s.name, args.only)]
    if not scenarios:
        print(f"{root}: no scenarios found matching {args.only!r} (under snippets/ or examples/)", file=sys.stderr)
        return 2
    start = time.monotonic()
    verdicts = []
    by_scenario, cached = _verify_with_cache(scenarios, languages, args, root)
    for name, scenario_verdicts in by_scenario.items():
        for v in scenario_verdicts:
            verdicts.append(v)
            mark = "ok  " if v.passed else "FAIL"
            print(f"{mark} {v.test_id} ({'cached' if name in cached else f'{v.duration_s:.2f}s'})")
            if not v.passed:
                print("\n".join("     " + line for line in v.report().splitlines()[1:]))
                annotate(v.problems, f"verification failed: {v.test_id}")
    ledger = ledger_mod.build(verdicts, root)
    if args.only != "*":  # keep what an earlier full run recorded for the other scenarios
        try:
            earlier = ledger_mod.load(root / args.ledger)
        except (OSError, ValueError, KeyError):
            earlier = None
        ledger = ledger_mod.merge(earlier, ledger, {s.name for s in scenarios})
    ledger_mod.save(ledger, root / args.ledger)
    if args.report:
        matrix.write_report(
            args.report,
            ledger.toolnexus,
            verdicts,
            verify_s=time.monotonic() - start,
            inputs=matrix.inputs_digest(scenarios, ledger.toolnexus, languages),
        )
    failed = [v for v in verdicts if not v.passed]
    print(
        f"{len(verdicts) - len(failed)} passed, {len(failed)} failed "
        f"in {time.monotonic() - start:.1f}s (toolnexus {ledger.toolnexus}; {len(cached)} of "
        f"{len(by_scenario)} scenarios unchanged since they passed); ledger: {args.ledger}"
    )
    return 1 if failed else 0


def _verify_with_cache(scenarios, languages, args, root):
    """Verdicts by scenario name and the names answered from the result cache, which is
    skipped with ``--force``, under CI (any non-empty ``CI`` variable, as CI services set it)
    and with ``--update-outputs`` (which must see every run's output)."""
    estimates = ledger_mod.durations(root / args.ledger)
    if args.update_outputs:  # what an earlier, killed rewrite may have left beside a golden file
        from verified_docs.verify.golden import remove_stale_temporaries

        for tmp in remove_stale_temporaries(root / "snippets"):
            print(f"removed {tmp.relative_to(root)} (left by an interrupted rewrite)", flush=True)
    if args.force or os.environ.get("CI") or args.update_outputs:
        return verify_all(
            scenarios, languages, update_outputs=args.update_outputs, jobs=args.jobs, estimates=estimates
        ), set()
    return cache_mod.verify_cached(
        scenarios, languages, cache_mod.ResultCache.open(root / args.cache), jobs=args.jobs, estimates=estimates
    )


def _try(args: argparse.Namespace) -> int:
    from verified_docs.serve import try_example

    root = args.root.resolve()
    try:
        choice = try_example.choose(discover_project(root), args.scenario, args.run)
        if args.serve:
            # Ctrl-C (or a TERM) ends the serving, set by hand: a shell starts a background job
            # with SIGINT ignored, and Python then installs no KeyboardInterrupt for it.
            stop = threading.Event()
            for sig in (signal.SIGINT, signal.SIGTERM):
                signal.signal(sig, lambda *_: stop.set())
            return try_example.serve(choice, root, sys.stdout, sys.stderr, port=args.port, stop=stop)
        return try_example.run_example(choice, root, sys.stdout.buffer, sys.stderr)
    except SourceError as e:
        print(e, file=sys.stderr)
        return 2
    except try_example.UsageError as e:
        print(f"verified_docs try: {e}", file=sys.stderr)
        return 2


def _mutate(args: argparse.Namespace) -> int:
    from verified_docs.tools import mutate

    try:
        scenarios = [s for s in discover_project(args.root.resolve()) if fnmatch.fnmatch(s.name, args.only)]
    except SourceError as e:
        print(e, file=sys.stderr)
        return 2
    start = time.monotonic()
    mutants = mutate.mutate_all(scenarios, jobs=args.jobs or os.cpu_count() or 1)
    for name, (killed, total) in sorted(mutate.scores(mutants).items()):
        print(f"{100 * killed / total:6.1f}%  {killed}/{total}  {name}")
    survivors = [m for m in mutants if not m.killed]
    for m in survivors:
        print("survived: " + m.describe())
    killed = len(mutants) - len(survivors)
    score = 100 * killed / len(mutants) if mutants else 0.0
    print(
        f"mutation score: {score:.1f}% ({killed}/{len(mutants)} killed, threshold {args.threshold:g}%) "
        f"in {time.monotonic() - start:.0f}s"
    )
    if not mutants:
        print("no mutants generated", file=sys.stderr)
        return 1
    return 0 if score >= args.threshold else 1


def _guard(args: argparse.Namespace) -> int:
    from verified_docs.site.guard import (
        check_site,
        directive_problems,
        load_executed,
        published_source_problems,
        unrendered_claims,
    )  # the docs extra

    root = args.root.resolve()
    try:
        ledger = ledger_mod.load(root / args.ledger)
    except FileNotFoundError as e:
        print(e, file=sys.stderr)
        return 2
    problems, checked = check_site(args.site, root / "docs", ledger.verified_hashes(), load_executed(args.fences))
    problems += published_source_problems(args.site, ledger.passed_files())
    problems += directive_problems(args.site, root / "docs")
    problems += unrendered_claims(args.site, root / "docs")
    for p in problems:
        print(p, file=sys.stderr)
    annotate(problems, "guard: not verified in this build")
    if checked == 0:
        print(f"{args.site}: no code blocks at all; is this a built site?", file=sys.stderr)
        return 1
    print(f"guard: {checked} code blocks checked, {len(problems)} problem(s)")
    return 1 if problems else 0


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
        planned = matrix.plan(root, discover_project(root), args.reports, tuple(LANGUAGES))
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
        results = matrix.combine([matrix.read_report(p) for p in args.reports])
        expected = matrix.expected_releases(root)
    except (SourceError, FileNotFoundError, ValueError, KeyError) as e:
        print(e, file=sys.stderr)
        return 2
    matrix.save(results, root / args.write)
    print(matrix.table(results))
    coverage = matrix.coverage_problems(results, expected, root / args.write)
    problems = matrix.check_since(results, scenarios)
    for p in coverage + problems:
        print(p, file=sys.stderr)
    annotate(coverage + problems, "release matrix")
    uneven = [n for n in results.scenarios if results.fails_after_since(n)]
    print(
        f"release matrix: {len(results.releases)} releases ({release_matrix.span(results.releases)}) x "
        f"{len(results.scenarios)} scenarios; {len(problems)} contrary to their declared 'since'; "
        f"{len(uneven)} failing again after their first pass{': ' + ', '.join(uneven) if uneven else ''}; "
        f"written to {args.write}"
    )
    return 1 if problems or coverage else 0


def _render(args: argparse.Namespace) -> int:
    """``render``: the render stage alone (and the generator with ``--generator``); exit 0, 1
    when the generator failed, 2 when a page cannot be rendered."""
    from verified_docs.render import vendor
    from verified_docs.render.pages import RENDERED, render_tree
    from verified_docs.site.generator import GENERATORS, GeneratorFailed, build

    root = args.root.resolve()
    if args.generator is not None and args.generator not in GENERATORS:
        print(f"unknown generator {args.generator!r}; known: {', '.join(GENERATORS)}", file=sys.stderr)
        return 2
    out = (root / (args.out or RENDERED)).resolve()
    try:
        tree = render_tree(root, root / args.ledger, out, out / "site")
    except (SourceError, FileNotFoundError, vendor.VendorError) as e:
        print(e, file=sys.stderr)
        return 2
    print(
        f"render: {len(tree.pages)} page(s) into {tree.docs_dir}, {tree.written} file(s) written, "
        f"{tree.removed} removed; {tree.edit_links}"
    )
    if args.generator is None:
        return 0
    from verified_docs.site.reproducible import set_source_date_epoch

    print(f"render: {set_source_date_epoch(root)}")  # the same site on any day, as the build's
    try:
        build(args.generator, tree.config, tree.site_dir)
    except GeneratorFailed as e:
        print(e, file=sys.stderr)
        return 1
    print(f"{args.generator}: built {tree.site_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
