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
from verified_docs.errors import SourceError, UsageError, annotate
from verified_docs.release import commands as release_commands
from verified_docs.release import matrix
from verified_docs.run import tmproot
from verified_docs.scenario.load import discover_project
from verified_docs.verify_stage import (
    Verified,
    add_options,
    discover,
    go_offline,
    parse_languages,
    result_cache,
    verify_and_record,
)


def _root(p: argparse.ArgumentParser, *, ledger: bool = False) -> None:
    """The options every command reading the project has: ``--root`` (and ``--ledger``)."""
    p.add_argument("--root", type=Path, default=Path.cwd(), help="project root (default: cwd)")
    if ledger:
        p.add_argument("--ledger", type=Path, default=ledger_mod.DEFAULT_LEDGER, help="ledger path, under root")


def _add_verify(sub) -> None:
    verify = sub.add_parser("verify", help="run every scenario and write the ledger")
    _root(verify, ledger=True)
    add_options(verify)
    verify.add_argument(
        "--only",
        metavar="GLOB",
        default="*",
        help="verify only scenarios whose name matches (fnmatch), e.g. 'suspension/answer-*'",
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


def _add_site(sub) -> None:
    guard = sub.add_parser(
        "guard",
        help="fail on any code block in a built site that did not run in this build, "
        "or any directive that did not come out",
    )
    guard.add_argument("--site", type=Path, required=True, help="the built site folder")
    _root(guard, ledger=True)
    guard.add_argument(
        "--fences",
        type=Path,
        required=True,
        help="executed fences, as the build writes them (build/executed-fences.json)",
    )
    rend = sub.add_parser(
        "render",
        help="render docs/ with the ledger into a tree of plain Markdown and its "
        "generated mkdocs.yml; with --generator, also build that tree and write its Markdown twins and llms.txt",
    )
    _root(rend, ledger=True)
    rend.add_argument(
        "--out",
        type=Path,
        default=None,
        help="folder of the rendered tree (default: build/rendered under root); the site goes to OUT/site",
    )
    rend.add_argument(
        "--generator", default=None, help="also build the tree: mkdocs or zensical (no guard, no publish)"
    )
    confirm = sub.add_parser(
        "confirm-claims",
        help="verify, check every claim again, and record the sentence of each claim whose evidence "
        "holds in rules/claimed-sentences.json",
    )
    _root(confirm, ledger=True)
    add_options(confirm)
    confirm.add_argument("pages", nargs="*", metavar="PAGE", help="only these pages (below docs/; fnmatch)")
    confirm.add_argument("--only", action="append", default=[], metavar="PAGE", help="the same as PAGE")
    confirm.add_argument(
        "--force", action="store_true", help="run every scenario even when unchanged since it passed (always under CI)"
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
    sub.add_parser(
        "new",
        add_help=False,
        help="scaffold an example: program, scenario.yaml, page, nav line (python -m verified_docs new --help)",
    )


TRY_DESCRIPTION = (
    "Run an example's programs against the scripted mock model exactly as the build does\n"
    "(same script, environment, arguments and checks) in a fresh temporary folder, and print\n"
    "what they printed: the output shown on the example's page. Notes go to stderr.\n"
    "Exit 0 when every run passed the build's checks, 1 when one failed, 2 for an unknown name."
)
TRY_EPILOG = (
    "examples:\n"
    "  python -m verified_docs try suspension/answer-later            # every run, every output\n"
    "  python -m verified_docs try answer-later --run resume          # the runs before it first, then\n"
    "                                                                 # only resume's output\n"
    "  python -m verified_docs try answer-later --run park --serve    # the model only, for your copy:\n"
    "      set the two printed variables (OPENAI_BASE_URL, OPENAI_API_KEY), then run your park.py;\n"
    "      a serve answers one pass of its run (start it again for another), and a scenario with\n"
    "      several runs needs --run. Run labels go to stderr, outputs to stdout."
)


def _add_runs(sub) -> None:
    mutation = sub.add_parser("mutate", help="mutation testing: do the scenarios catch careless edits?")
    _root(mutation)
    mutation.add_argument("--only", metavar="GLOB", default="*", help="scenarios to mutate (fnmatch)")
    mutation.add_argument("--threshold", type=float, default=90.0, help="minimum total score, percent")
    mutation.add_argument("--jobs", "-j", type=int, default=None, help="mutants verified at once")
    tryit = sub.add_parser(
        "try",
        help="run one example offline against its scripted model, or serve the model for your own copy",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=TRY_DESCRIPTION,
        epilog=TRY_EPILOG,
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
    _root(tryit)


def parser() -> argparse.ArgumentParser:
    """The command line: one subcommand per entry point (``build`` and ``serve`` parse their own)."""
    top = argparse.ArgumentParser(prog="verified_docs", description=__doc__)
    sub = top.add_subparsers(dest="command", required=True)
    _add_verify(sub)
    release_commands.add_parsers(sub, _root)
    _add_site(sub)
    _add_runs(sub)
    return top


def _runs_snippets(args: argparse.Namespace) -> bool:
    """Whether the command runs snippets, and so moves into a network namespace first: never
    ``try --serve``, whose model must be reachable from the host."""
    return args.command in ("verify", "mutate", "confirm-claims") or (args.command == "try" and not args.serve)


def _go_offline(args: argparse.Namespace) -> bool:
    """Move into the network namespace; ``confirm-claims`` renders claims, so it first fetches
    the Mermaid script as the build does. False (the reason printed) when that failed."""
    if args.command == "confirm-claims":
        from verified_docs.build import fetch_then_go_offline

        return fetch_then_go_offline(args.root.resolve())
    return go_offline()


def main(argv: list[str] | None = None) -> int:
    """Run the command ``argv`` names (default: this process's command line); its exit status."""
    top = parser()
    args, rest = top.parse_known_args(argv)
    try:
        tmproot.enter()  # every temporary folder of this run under one root, removed even after a kill
    except tmproot.EnvironmentProblem as e:
        print(f"verified_docs: {e}", file=sys.stderr)
        return 2
    if args.command not in ("build", "serve", "new") and rest:
        top.error(f"unrecognized arguments: {' '.join(rest)}")
    offline = argv is None  # a process of its own (`python -m verified_docs`), not a call from a test
    # Only a whole process moves: one thread of a test process would leave its other threads
    # (the warm worker's clients) outside.
    if offline and _runs_snippets(args) and not _go_offline(args):
        return 2
    if args.command == "build":
        from verified_docs.build import main as build_main

        return build_main(rest, offline=offline)
    if args.command == "new":
        from verified_docs.scaffold.new import main as new_main

        return new_main(rest)
    if args.command == "serve":
        # Not in the network namespace: the preview it serves must be reachable from the host.
        from verified_docs.serve.author_loop import main as serve_main

        return serve_main(rest)
    return COMMANDS[args.command](args)


def _verify(args: argparse.Namespace) -> int:
    """``verify``: one line per run, every problem indented below it, then a summary; exit 1
    when a run failed, 2 on bad input."""
    root = args.root.resolve()
    try:
        languages = parse_languages(args.languages)
        # Parsed scenarios come from disk when unchanged: `release-matrix -- --only` runs this
        # once per release, and parsing every scenario.yaml would cost more than the run.
        scenarios = [s for s in discover(root, force=args.force) if fnmatch.fnmatch(s.name, args.only)]
    except UsageError as e:
        print(e, file=sys.stderr)
        return 2
    except SourceError as e:
        print(e, file=sys.stderr)
        annotate(e.problems, "bad input")
        return 2
    if not scenarios:
        print(f"{root}: no scenarios found matching {args.only!r} (under snippets/ or examples/)", file=sys.stderr)
        return 2
    start = time.monotonic()
    verified = verify_and_record(
        root,
        scenarios,
        languages,
        cache=result_cache(root, args.cache, force=args.force or args.update_outputs),
        ledger_path=args.ledger,
        partial=args.only != "*",
        update_outputs=args.update_outputs,
        jobs=args.jobs,
    )
    _print_runs(verified)
    toolnexus = verified.ledger.toolnexus
    if args.report:
        matrix.write_report(
            args.report,
            toolnexus,
            verified.verdicts,
            verify_s=time.monotonic() - start,
            inputs=matrix.inputs_digest(scenarios, toolnexus, languages),
        )
    failed = len(verified.failed)
    print(
        f"{len(verified.verdicts) - failed} passed, {failed} failed in {time.monotonic() - start:.1f}s "
        f"(toolnexus {toolnexus}; {verified.unchanged}); ledger: {args.ledger}"
    )
    return 1 if failed else 0


def _print_runs(verified: Verified) -> None:
    for name, verdicts in verified.by_scenario.items():
        for v in verdicts:
            mark = "ok  " if v.passed else "FAIL"
            print(f"{mark} {v.test_id} ({'cached' if name in verified.cached else f'{v.duration_s:.2f}s'})")
            if not v.passed:
                print("\n".join("     " + line for line in v.report().splitlines()[1:]))
                annotate(v.problems, f"verification failed: {v.test_id}")


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
    except UsageError as e:
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
    """``guard``: the build's guard stage on a site built elsewhere; exit 0, 1 on a problem, 2
    without the ledger or the record of executed fences."""
    from verified_docs.build import check_built_site

    root = args.root.resolve()
    try:
        problems, checked = check_built_site(args.site, root, root / args.ledger, args.fences)
    except FileNotFoundError as e:
        print(e, file=sys.stderr)
        return 2
    if checked == 0:
        print(f"{args.site}: no code blocks at all; is this a built site?", file=sys.stderr)
        return 1
    print(f"guard: {checked} code blocks checked, {len(problems)} problem(s)")
    return 1 if problems else 0


def _render(args: argparse.Namespace) -> int:
    """``render``: the render stage alone (and, with ``--generator``, the generator, the code
    links and the Markdown twins); exit 0, 1 when the generator failed, 2 when a page cannot be
    rendered."""
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
    from verified_docs.build import link_code
    from verified_docs.site.llms_txt import write_llm_files

    link_code(tree)
    try:
        print(f"twins: {write_llm_files(tree.config, tree.pages).summary()}")
    except SourceError as e:
        print(e, file=sys.stderr)
        return 2
    return 0


def _confirm(args: argparse.Namespace) -> int:
    """``confirm-claims``: verify every scenario as the build does (the result cache answers
    unchanged ones), then check the claims again and record their sentences
    (:func:`~verified_docs.render.pages.confirm_claims`); exit 0, 1 when a run or a claim
    failed (each printed at its file and line), 2 on bad input."""
    from verified_docs.render import vendor
    from verified_docs.render.claim_record import RECORD_FILE
    from verified_docs.render.pages import confirm_claims, named_pages

    root = args.root.resolve()
    only = tuple(args.pages + args.only)
    try:
        languages = parse_languages(args.languages)
        named_pages(root, only)  # a page named wrong stops it before anything runs
        scenarios = discover(root, force=args.force)
    except (UsageError, SourceError) as e:
        print(e, file=sys.stderr)
        return 2
    cache = result_cache(root, force=args.force)
    verified = verify_and_record(root, scenarios, languages, cache=cache, ledger_path=args.ledger, jobs=args.jobs)
    verified.report_failures()
    try:
        changed, problems = confirm_claims(root, root / args.ledger, only)
    except (SourceError, FileNotFoundError, vendor.VendorError) as e:
        print(e, file=sys.stderr)
        return 2
    for p in problems:
        print(p, file=sys.stderr)
    annotate(problems, "claim not confirmed")
    print(
        f"confirm-claims: {len(verified.verdicts) - len(verified.failed)} of {len(verified.verdicts)} runs passed; "
        f"{changed} record(s) of {RECORD_FILE.as_posix()} added, changed or dropped; "
        f"{len(problems)} claim(s) not confirmed"
    )
    return 1 if problems or verified.failed else 0


COMMANDS = {
    "confirm-claims": _confirm,
    "verify": _verify,
    "mutate": _mutate,
    "guard": _guard,
    "try": _try,
    "render": _render,
    **release_commands.COMMANDS,
}


if __name__ == "__main__":
    sys.exit(main())
