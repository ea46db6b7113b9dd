"""Build the site in one process: verify, run the docs' fences, render Markdown, generate, guard, publish.

``python -m verified_docs build`` (what ``nox -s docs`` runs). Each stage stops the build on
failure, so ``site/`` is only ever replaced by a site whose every code block ran:

1. verify every scenario and write the ledger (:mod:`verified_docs.verify_stage`), answering
   unchanged ones from the result cache (:mod:`verified_docs.cache`);
2. run the Python fences written in ``docs/`` under pytest-markdown-docs (alongside step 1,
   :mod:`verified_docs.fences.stage`), each page in a process of its own, unless the page, the
   test plugin, toolnexus, the machinery and every file its fences read are as when they last passed;
3. render Markdown (:mod:`verified_docs.render.pages`): ``docs/`` with every directive and claim
   rendered, the published programs and the Mermaid script, into ``build/rendered/docs``, and
   a generated ``build/rendered/mkdocs.yml`` without hooks;
4. the generator (:mod:`verified_docs.site.generator`): ``mkdocs build --strict`` (in this process: a no-op
   rebuild should cost about a bare ``mkdocs build``) or, with ``--generator zensical``,
   ``zensical build --strict``, into ``build/rendered/site``;
5. the Markdown twins (:mod:`verified_docs.site.llms_txt`): every page as Markdown beside its
   HTML, ``llms.txt`` and ``llms-full.txt``, written into the built site;
6. the guard: every code block in the built site is a verified section, a verified output or
   a fence that ran, and every directive of ``docs/`` came out as its block, whichever
   generator built it, and the twins hold what the pages hold;
7. swap the built site into ``site/``.
"""

from __future__ import annotations

import argparse
import functools
import logging
import sys
import time
from pathlib import Path

from verified_docs import ledger as ledger_mod
from verified_docs.errors import (
    Problem,
    SourceError,
    StageFailed,
    UsageError,
    annotate,
    annotate_text,
    display_path,
    on_github_actions,
    workflow_command,
)
from verified_docs.fences.stage import FENCES, Fences
from verified_docs.run import tmproot
from verified_docs.site import reproducible
from verified_docs.site.generator import DEFAULT as DEFAULT_GENERATOR
from verified_docs.site.generator import GENERATORS
from verified_docs.verify_stage import (
    add_options,
    discover,
    forced,
    go_offline,
    parse_languages,
    result_cache,
    verify_and_record,
)

PARTIAL = Path("build") / "rendered" / "site"


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
    """Verify every scenario (:func:`~verified_docs.verify_stage.verify_and_record`; from the
    caches unless :func:`~verified_docs.verify_stage.forced`) and write the ledger. Raises
    :class:`StageFailed` when a run failed, :class:`SourceError` on a malformed scenario."""
    scenarios = discover(root, force=force)
    verified = verify_and_record(root, scenarios, languages, cache=result_cache(root, force=force), jobs=jobs)
    verified.report_failures()
    passed = len(verified.verdicts) - len(verified.failed)
    print(f"verify: {passed} of {len(verified.verdicts)} runs passed; {verified.unchanged}")
    verified.raise_if_failed()


class _WarningAnnotations(logging.Handler):
    """Prints each WARNING record of MkDocs as a workflow command (strict mode fails the build
    on it); an error is annotated where it is raised (the render stage names its page and line)."""

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno == logging.WARNING:
            print(workflow_command("mkdocs --strict warning", record.getMessage()), flush=True)


_warning_annotations = _WarningAnnotations()


@_stage("render")
def render(root: Path, out: Path | None = None, *, report: bool = True, only=None, scenarios=None):
    """Render ``docs/`` with this build's ledger into ``out`` (default ``build/rendered/``; the
    site goes to ``out/site``; see :func:`~verified_docs.render.pages.render_tree`, which takes
    ``only`` and ``scenarios``), printing a line with what was written unless ``report`` is False. Claimed sentences are compared with
    their record, and new ones recorded, outside CI; under CI one without a record fails
    (:mod:`~verified_docs.render.claim_record`). Prints, per page, the likely-factual sentences
    without a claim or an advice mark (:mod:`~verified_docs.render.factual`), each a problem. Raises :class:`SourceError` at every
    page and line that cannot be rendered, :class:`StageFailed` when the Mermaid script cannot be had."""
    from verified_docs.render import vendor
    from verified_docs.render.claim_record import RECORD_FILE, mode_for_build, stale_line
    from verified_docs.render.factual import load_pending, report_lines
    from verified_docs.render.pages import RENDERED, render_tree

    out = root / RENDERED if out is None else out
    factual: list = []
    try:
        tree = render_tree(
            root,
            root / ledger_mod.DEFAULT_LEDGER,
            out,
            out / "site",
            sentences=mode_for_build(),
            only=only,
            scenarios=scenarios,
            factual=factual,
        )
    except vendor.VendorError as e:
        raise StageFailed(str(e)) from None
    finally:
        if report and factual:
            # Per page, how many likely-factual sentences carry neither a claim nor an advice mark.
            print("\n".join(report_lines(factual, load_pending(root))), flush=True)
    if not report:
        return tree
    print(
        f"render: {len(tree.pages)} page(s) into {display_path(tree.docs_dir)}, {tree.written} file(s) written, "
        f"{tree.removed} removed; {tree.edit_links}",
        flush=True,
    )
    if tree.recorded:
        print(f"render: {tree.recorded} new claimed sentence(s) recorded in {RECORD_FILE.as_posix()}; commit it")
    if tree.stale:
        print(stale_line(list(tree.stale)), flush=True)
    # A warning, not a failure, so an author's edit reaches the page at once; the tests job
    # fails on it, so no published page lacks a row.
    for name in tree.unmeasured:
        print(
            f"render: warning: the release matrix has no row for {name} as its files are now; its pages show no "
            f"'since' until you run `nox -s release-matrix -- --only {name}`",
            flush=True,
        )
    return tree


def generate(generator: str, tree) -> None:
    """Build the rendered tree with ``generator`` (:mod:`verified_docs.site.generator`), timed under its name,
    then link the programs' toolnexus names to the API reference (:func:`link_code`) and write the
    Markdown twins (:func:`markdown_twins`). Raises :class:`StageFailed` when the generator fails
    or warns, :class:`SourceError` when a twin cannot be written."""
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
    link_code(tree)
    markdown_twins(tree)


def link_code(tree, pages=None) -> str:
    """Link the toolnexus names of the programs in ``tree``'s built site (only in the built
    pages ``pages``, when given) to their reference
    entries (:func:`~verified_docs.site.code_links.link_site`, from the ledger ``tree`` was
    rendered from), whichever generator built it; the line saying what it did is printed and returned."""
    from verified_docs.site.code_links import link_site

    report = link_site(tree.site_dir, ledger_mod.load(tree.ledger), tree.root, pages)
    line = (
        f"links: {report.links} toolnexus name(s) linked to the API reference in {report.blocks} of "
        f"{report.programs} program block(s), on {report.pages} page(s)"
    )
    print(line, flush=True)
    return line


@_stage("twins")
def markdown_twins(tree) -> None:
    """Write every page's Markdown twin, ``llms.txt`` and ``llms-full.txt`` into the built site
    (:func:`~verified_docs.site.llms_txt.write_llm_files`), from the rendered pages, so both
    generators' sites get the same; the guard checks them next. Raises :class:`SourceError`
    at a rendered page's line the twin writer cannot read."""
    from verified_docs.site.llms_txt import write_llm_files

    print(f"twins: {write_llm_files(tree.config, tree.pages).summary()}", flush=True)


PER_PAGE = 3


def page_key(path: Path, docs: Path | None = None, site: Path | None = None) -> str:
    """The page a problem's file belongs to, so that a page of ``docs`` and its HTML and
    Markdown twin in ``site`` share one key (``suspension/approval-gate`` for
    ``docs/suspension/approval-gate.md``, ``site/suspension/approval-gate/index.html`` and its
    ``index.html.md``); a file below neither is its own key."""
    resolved = Path(path).resolve()
    for base, suffixes in ((docs, (".md",)), (site, (".md", ".html"))):
        if base is None:
            continue
        try:
            rel = resolved.relative_to(Path(base).resolve()).as_posix()
        except ValueError:
            continue
        for suffix in suffixes:
            rel = rel.removesuffix(suffix)
        return "" if rel == "index" else rel.removesuffix("/index")
    return str(path)


def grouped_report(
    problems: list[Problem], per_page: int = PER_PAGE, *, docs: Path | None = None, site: Path | None = None
) -> list[str]:
    """The lines of the guard's report, the problems grouped by page (:func:`page_key`) in the
    order their pages first appear. While no page has more than ``per_page`` problems, each
    problem prints whole, details and all. Once one has more, every page gets one line: its
    one problem without details, or how many it has and the first ``per_page`` in short; and a
    last line asks whether the generator built the site alone. Such a site (no render stage)
    breaks every directive and claim of every page, and hundreds of lines would hide why."""
    pages: dict[str, list[Problem]] = {}
    for p in problems:
        pages.setdefault(page_key(p.where.path, docs, site), []).append(p)
    if all(len(group) <= per_page for group in pages.values()):
        return [str(p) for p in problems]
    lines: list[str] = []
    for group in pages.values():
        if len(group) == 1:
            lines.append(f"{group[0].where}: {group[0].what}")
            continue
        # Named by its page of docs/ where one of its problems is, since that is what the author edits.
        named = next((p.where.path for p in group if docs and _below(p.where.path, docs)), group[0].where.path)
        first = "; ".join(_short(p, named) for p in group[:per_page])
        lines.append(f"{display_path(named)}: {len(group)} problems, the first {min(per_page, len(group))}: {first}")
    lines.append(
        f"{len(pages)} page(s) with problems, one line each, some with more than {per_page}: was the site built "
        "by the generator alone? `nox -s docs` renders the pages first"
    )
    return lines


def _below(path: Path, folder: Path) -> bool:
    return Path(path).resolve().is_relative_to(Path(folder).resolve())


def _short(p: Problem, named: Path) -> str:
    """``p`` without its details, its place cut to ``line N`` when it is in the file ``named``."""
    if p.where.path != named:
        return f"{p.where}: {p.what}"
    return f"line {p.where.line}: {p.what}" if p.where.line else p.what


def check_built_site(site_dir: Path, root: Path, ledger_path: Path, fences: Path) -> tuple[list[Problem], int]:
    """The problems of the built site at ``site_dir``: a code block that did not run in this
    build (by the ledger at ``ledger_path`` and the executed fences recorded in ``fences``), a
    published program that is not the verified file, a directive or claim of ``root / "docs"``
    that did not come out, an API reference entry that is not what griffe reads from the
    installed toolnexus or a code link to none (:mod:`~verified_docs.site.api_check`), a page rule broken (:mod:`~verified_docs.site.page_rules`); each
    printed to stderr (annotated under GitHub Actions). Also how many code blocks were checked.
    Raises ``FileNotFoundError`` when a record is missing."""
    from verified_docs.scenario.rules import installed_package_dir
    from verified_docs.site.api_check import api_reference_problems, code_link_problems
    from verified_docs.site.built_html import pages_read_once
    from verified_docs.site.guard import (
        check_site,
        directive_problems,
        load_executed,
        published_source_problems,
        unrendered_claims,
    )  # the docs extra
    from verified_docs.site.page_rules import page_rule_problems
    from verified_docs.site.twin_guard import twin_problems

    ledger = ledger_mod.load(ledger_path)
    verified, executed = ledger.verified_hashes(), load_executed(fences)  # each read once: both checks use them
    with pages_read_once():  # every check below reads every page
        problems, checked = check_site(site_dir, root / "docs", verified, executed)
        problems += published_source_problems(site_dir, ledger.passed_files())
        problems += api_reference_problems(site_dir, root / "docs", installed_package_dir())
        problems += code_link_problems(site_dir)
        problems += directive_problems(site_dir, root / "docs")
        problems += unrendered_claims(site_dir, root / "docs")
        problems += twin_problems(site_dir, root / "docs", verified, executed)
        broken = page_rule_problems(site_dir, root / "docs")
    for line in grouped_report(problems + broken, docs=root / "docs", site=site_dir):
        print(line, file=sys.stderr)
    annotate(problems, "guard: not verified in this build")
    annotate(broken, "guard: page rule broken")
    problems += broken
    return problems, checked


@_stage("guard")
def guard(root: Path, site_dir: Path) -> None:
    """Fail when a code block of the built site did not run in this build, a directive of
    ``docs/`` did not come out as its block, or a page breaks a page rule (:func:`check_built_site`)."""
    problems, checked = check_built_site(site_dir, root, root / ledger_mod.DEFAULT_LEDGER, root / FENCES)
    print(f"guard: {checked} code blocks checked, {len(problems)} problem(s)")
    if checked == 0:
        raise StageFailed(f"{site_dir}: no code blocks at all; did the render stage run?")
    if problems:
        raise StageFailed(
            f"{len(problems)} problem(s) in the built site: code that did not run, directives that did not come out, "
            "or page rules broken"
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


def fetch_then_go_offline(root: Path) -> bool:
    """Fetch the one thing the build downloads (the Mermaid script, when missing), then move the
    whole build offline (:func:`~verified_docs.verify_stage.go_offline`): verification, the
    fences and every snippet's processes. False (the reason printed) when that failed halfway."""
    from verified_docs.render import vendor

    try:
        vendor.ensure(vendor.MERMAID, root)
    except vendor.VendorError:
        pass  # the render stage reports it (and stops the build)
    return go_offline()


def _parser() -> argparse.ArgumentParser:
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
    add_options(parser)
    parser.add_argument(
        "--generator",
        choices=GENERATORS,
        default=DEFAULT_GENERATOR,
        help=f"the site generator (default: {DEFAULT_GENERATOR})",
    )
    return parser


def _prepare(root: Path, given: Path | None, offline: bool) -> bool:
    """Check ``root`` (``given`` is what ``--root`` said), enter the run's temporary root, fix
    the build's date and, when ``offline``, go offline. False (the reason printed) when the
    build cannot start."""
    bad = project_root_problem(root)
    if bad:
        print(
            f"{given or root}: {bad}" + ("" if given else " (no --root given: the current directory)"), file=sys.stderr
        )
        return False
    try:
        tmproot.enter()
    except tmproot.EnvironmentProblem as e:
        print(f"verified_docs: {e}", file=sys.stderr)
        return False
    print(f"[build] {reproducible.set_source_date_epoch(root)}", flush=True)
    return not offline or fetch_then_go_offline(root)


def _stages(root: Path, languages: tuple[str, ...], generator: str, *, force: bool, jobs: int | None) -> int:
    """Run the stages into ``build/rendered/site``; exit status 0, 1 when a stage failed, 2 on
    malformed input (each reported)."""
    fences = Fences(root, force=force)
    try:
        verify(root, languages, force=force, jobs=jobs)
        fences.finish()
        tree = render(root)
        generate(generator, tree)
        guard(root, tree.site_dir)
    except SourceError as e:
        print(e, file=sys.stderr)
        annotate(e.problems, "bad input")
        # As a failed stage ends: the author learns nothing was published.
        print(f"build stopped: {len(e.problems)} problem(s) in the input above; site/ left as it was", file=sys.stderr)
        return 2
    except StageFailed as e:
        print(f"build stopped: {e}; site/ left as it was", file=sys.stderr)
        annotate_text("build stopped", f"{e}; site/ left as it was")
        return 1
    finally:
        fences.stop()
    return 0


def main(argv: list[str] | None = None, *, offline: bool | None = None) -> int:
    """Build and publish the site; exit 0, 1 when a stage failed, 2 on malformed input.
    ``offline`` (default: True when ``argv`` is None, i.e. this is the process's own command
    line) moves the process into a network namespace first (:func:`fetch_then_go_offline`)."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        languages = parse_languages(args.languages)
    except UsageError as e:
        parser.error(str(e))
    root = (args.root or Path.cwd()).resolve()
    if not _prepare(root, args.root, argv is None if offline is None else offline):
        return 2
    start = time.perf_counter()
    status = _stages(root, languages, args.generator, force=forced(args.force), jobs=args.jobs)
    if status:
        return status
    from verified_docs.site.publish import swap_in

    swap_in(root / PARTIAL, root / "site")
    print(f"site built with {args.generator} in {root / 'site'} ({time.perf_counter() - start:.1f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
