"""MkDocs hook: replace each verified-example directive with its tabs and each claim with its
link to the evidence. The only module that imports MkDocs.

Registered in ``mkdocs.yml`` under ``hooks:``. It reads the ledger written by
``python -m verified_docs verify`` (path from ``VERIFIED_DOCS_LEDGER``, default
``build/verified-ledger.json``) and fails the build, naming the page and line, for any example
that is unknown, malformed or not verified green in this build, and for any claim
(:mod:`verified_docs.claims`) that is malformed or that its evidence contradicts. Every block
it renders carries a marker (:func:`verified_docs.directive.marker`) by which the guard checks,
in the HTML, that each directive came out.
"""
from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from verified_docs import claims as claims_mod
from verified_docs import ledger as ledger_mod
from verified_docs.directive import body_start, find_directives
from verified_docs.edit_link import resolve_edit_uri
from verified_docs.errors import SourceError, annotate
from verified_docs.render.contract import render_contract
from verified_docs.render.diagram import render_diagrams
from verified_docs.render.evidence import render_evidence
from verified_docs.render.install import render_install
from verified_docs.render.matrix_table import render_matrix
from verified_docs import matrix as matrix_mod
from verified_docs import vendor
from verified_docs.render.resolve import resolve
from verified_docs.render.tabs import SOURCE_DIR, render_example
from verified_docs.rules import RULES_FILE, coverage, load_rules, pages_by_scenario
from verified_docs.scenario import Scenario, discover_project

_state: dict[str, Any] = {}
log = logging.getLogger("mkdocs.hooks.verified_docs")


def on_config(config: Any) -> Any:
    """Load the scenarios and the ledger once per build."""
    root = Path(config["config_file_path"]).resolve().parent
    ledger_path = root / os.environ.get("VERIFIED_DOCS_LEDGER", str(ledger_mod.DEFAULT_LEDGER))
    try:
        found = discover_project(root)
        scenarios: dict[str, Scenario] = {s.name: s for s in found}
        matrix_path = root / matrix_mod.MATRIX_FILE
        _state.update(root=root, scenarios=scenarios, ledger=ledger_mod.load(ledger_path),
                      docs=Path(config["docs_dir"]), coverage=None, claims=None,
                      matrix=matrix_mod.load(matrix_path) if matrix_path.is_file() else None,
                      mermaid=vendor.ensure(vendor.MERMAID, root))
    except (SourceError, FileNotFoundError, vendor.VendorError) as e:
        if isinstance(e, SourceError):
            annotate(e.problems, "bad input")
        raise PluginError(str(e)) from None
    _snippets_from_root(config, root)
    if not config.get("edit_uri"):
        docs_dir = Path(config["docs_dir"]).resolve().relative_to(root).as_posix()
        edit_uri, source = resolve_edit_uri(root, docs_dir)
        config["edit_uri"] = edit_uri or ""
        log.info(f"verified_docs: edit links {source}" if edit_uri else f"verified_docs: {source}")
    return config


def _snippets_from_root(config: Any, root: Path) -> None:
    """Point pymdownx.snippets' relative ``base_path`` entries at the project root. The
    extension makes them absolute against the working directory, so a build started from
    another directory would otherwise include that directory's files (another checkout's)."""
    options = config["mdx_configs"].get("pymdownx.snippets")
    if options is None:
        return
    bases = options.get("base_path", ["."])
    options["base_path"] = [str(root / b) for b in ([bases] if isinstance(bases, str) else bases)]


def on_files(files: Any, config: Any) -> Any:
    """Publish the bundled Mermaid script (:mod:`verified_docs.vendor`), and every verified
    program and support file under ``verified-src/`` (as it is in the project), so each tab
    can link to the whole runnable file. Only files the ledger vouches
    for, byte for byte, are published; the guard checks the built site again."""
    root, ledger = _state["root"], _state["ledger"]
    # Mermaid from this site's own origin (mkdocs.yml lists it first), so Material never
    # fetches it from a CDN; its licence beside it.
    script, licence = _state["mermaid"]
    site_path = vendor.MERMAID.site_path
    files.append(File.generated(config, site_path, abs_src_path=str(script)))
    files.append(File.generated(config, f"{site_path.rsplit('/', 1)[0]}/{licence.parent.name}.LICENSE",
                                abs_src_path=str(licence)))
    for rel, entry in sorted(ledger.programs.items()):
        path = root / rel
        if entry["passed"] and path.is_file() and ledger_mod.sha256_file(path) == entry["sha256"]:
            files.append(File.generated(config, f"{SOURCE_DIR}/{rel}", abs_src_path=str(path)))
    return files


def _coverage() -> Any:
    # Loaded on first use, so a site without a contract page needs no rules file.
    if _state["coverage"] is None:
        scenarios = list(_state["scenarios"].values())
        rules = load_rules(_state["root"] / RULES_FILE)
        _state["coverage"] = coverage(rules, scenarios, pages_by_scenario(_state["docs"]))
    return _state["coverage"]


def _claims() -> claims_mod.Context:
    # Built on first use: it reads every page (for the evidence boxes, the matrix and the
    # source claims) and finds the installed toolnexus.
    if _state["claims"] is None:
        try:
            package, version = claims_mod.installed_toolnexus()
        except FileNotFoundError as e:
            raise SourceError.at(_state["root"] / "pyproject.toml", 0, str(e)) from None
        _state["claims"] = claims_mod.Context(_state["scenarios"], _state["ledger"], _state["root"], _state["matrix"],
                                              claims_mod.scan_site(_state["docs"]), package, version)
    return _state["claims"]


def on_nav(nav: Any, config: Any, files: Any) -> Any:
    """Remember each page's navigation title, for links in generated tables."""
    _state["titles"] = {p.file.src_uri: p.title for p in nav.pages if p.title}
    return nav


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Swap every claim of ``page`` for its link, then every directive line for its rendering;
    fail when a claim comment is left in the result."""
    page_path = Path(config["docs_dir"]) / page.file.src_path
    try:
        source = markdown
        # Lines count from the top of the file, front matter included, as the guard reads it.
        src = page.file.abs_src_path
        first = body_start(Path(src).read_text(encoding="utf-8-sig"), markdown) if src else 1
        # Claims first: their replacement keeps every line where it was, so the directives'
        # line numbers still name the page as written.
        markdown = claims_mod.render_claims(markdown, page_path, page.file.src_uri, _claims())
        lines = markdown.splitlines(keepends=True)
        directives = find_directives(markdown, page_path, first)
        examples = {d: resolve(d, _state["scenarios"], _state["ledger"], _state["root"])
                    for d in directives if d.kind == "example"}
        # The runs whose output this page shows: their evidence box need not repeat it.
        shown = {(e.directive.scenario, e.run) for e in examples.values() if e.run and e.show_output}
        for d in reversed(directives):
            if d.kind == "matrix":
                lines[d.where.line - first] = render_matrix(d, page.file.src_uri, _state["matrix"],
                                                            _state["scenarios"], pages_by_scenario(_state["docs"]))
            elif d.kind == "contract":
                lines[d.where.line - first] = render_contract(d, page.file.src_uri, _coverage(), _state["titles"])
            elif d.kind == "evidence":
                lines[d.where.line - first] = render_evidence(
                    d, _state["scenarios"], _state["ledger"], _state["root"], _state["matrix"],
                    shown_runs=frozenset(run for name, run in shown if name == d.scenario),
                    page_src_uri=page.file.src_uri)
            elif d.kind == "install":
                lines[d.where.line - first] = render_install(d, _state["root"] / "pyproject.toml", _state["ledger"])
            elif d.kind == "diagram":
                lines[d.where.line - first] = render_diagrams(d, _state["scenarios"], _state["ledger"], _state["root"])
            elif d.kind == "sources":
                lines[d.where.line - first] = claims_mod.render_sources(d, page.file.src_uri, _claims(),
                                                                        _state["titles"])
            else:
                lines[d.where.line - first] = render_example(examples[d], page.file.src_uri)
        rendered = "".join(lines)
        left = claims_mod.leftover_claims(rendered, page_path, source)
        if left:
            raise SourceError(*left)
        return rendered
    except SourceError as e:
        annotate(e.problems, "page check failed (claim or directive)")
        raise PluginError(str(e)) from None
