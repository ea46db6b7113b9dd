"""The render stage: ``docs/`` plus this build's ledger and scenarios become a tree of plain
Markdown in which every directive and claim is already rendered, for any site generator.

What a generator then reads (``build/rendered/``, see :func:`render_tree`):

- ``docs/``: each page of ``docs/`` with its claims turned into links and its directives into
  tabs, code blocks, evidence boxes, diagrams and tables (:class:`Renderer`), then its
  pymdownx.snippets include lines (the programs and golden outputs it shows) replaced by the
  files' bytes, by that extension itself (:func:`~verified_docs.render.includes.expanded`;
  Zensical's cache answers only pages without one); every other file
  of ``docs/`` as it is; each verified program and support file under ``verified-src/`` (only
  those the ledger vouches for, byte for byte); the pinned Mermaid script and its licence
  (:mod:`verified_docs.render.vendor`);
- ``mkdocs.yml``: ``mkdocs.yml`` with ``docs_dir`` and ``site_dir`` pointing there, no
  ``hooks``, ``edit_uri`` resolved (:mod:`verified_docs.render.edit_link`) and pymdownx.snippets' ``base_path``
  absolute at the project root (for a page whose include lines are left to the generator).
  MkDocs and Zensical both read it.

The MkDocs hook (:mod:`verified_docs.site.mkdocs_hook`, for ``mkdocs serve`` and ``mkdocs build`` straight from ``mkdocs.yml``) is a thin
adapter over the same :class:`Renderer`: there is one code path for rendering. Nothing here
imports MkDocs. Every file written is generated (atomically, only when its bytes changed);
the hand-written ``docs/`` is only read.
"""

from __future__ import annotations

import copy
import fnmatch
import io
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from verified_docs import ledger as ledger_mod
from verified_docs.errors import Location, Problem, SourceError
from verified_docs.files import write_atomic
from verified_docs.render import release_matrix as matrix_mod
from verified_docs.render import vendor
from verified_docs.render.api_reference import render_api_reference
from verified_docs.render.claim_context import Context, scan_site
from verified_docs.render.claim_record import Sentences
from verified_docs.render.claim_source import installed_toolnexus, render_sources
from verified_docs.render.claims import leftover_claims, render_claims
from verified_docs.render.code_width import shown_code_problems
from verified_docs.render.contract import render_contract
from verified_docs.render.diagram import render_diagrams
from verified_docs.render.directive import Directive, find_directives, pages_by_scenario
from verified_docs.render.edit_link import THEME_DIR, resolve_edit_uri, set_repository
from verified_docs.render.evidence import render_evidence
from verified_docs.render.factual import PageReport, api_names, check_page, load_pending, page_problems
from verified_docs.render.includes import expanded, include_problems
from verified_docs.render.install import render_install
from verified_docs.render.matrix_table import render_matrix
from verified_docs.render.resolve import resolve
from verified_docs.render.tabs import SOURCE_DIR, render_example
from verified_docs.scenario.load import discover_project
from verified_docs.scenario.records import Scenario
from verified_docs.scenario.rules import RULES_FILE, coverage, load_rules

RENDERED = Path("build") / "rendered"
CONFIG_NAME = "mkdocs.yml"
SNIPPETS = "pymdownx.snippets"


def _yaml() -> Any:
    from ruamel.yaml import YAML

    yaml = YAML()  # round-trip: keeps comments, order and tags such as !!python/name:
    yaml.width = 4096
    return yaml


def load_config(path: Path) -> Any:
    """``mkdocs.yml`` as a ruamel.yaml round-trip mapping (tags and comments kept), a copy of
    its own (the caller may change it). Raises
    :class:`SourceError` at the file (and line, where the parser says) when it is not YAML."""
    text = Path(path).read_text(encoding="utf-8")
    return copy.deepcopy(_parsed_config(str(path), text))


@lru_cache(maxsize=8)
def _parsed_config(path: str, text: str) -> Any:
    """:func:`load_config` of ``text`` (the file at ``path``), memoised: ruamel.yaml's round
    trip costs a tenth of a second, and the author loop reads the same file twice per save."""
    from ruamel.yaml import YAMLError

    try:
        data = _yaml().load(text)
    except YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise SourceError.at(Path(path), mark.line + 1 if mark else 0, f"not readable as YAML: {e}") from None
    if not hasattr(data, "get"):
        raise SourceError.at(Path(path), 0, "expected a mapping of settings")
    return data


def _title_from_page(page: Path) -> str:
    """The page's first ``# `` heading, else its file name as a title (``log-in-first.md`` ->
    ``Log in first``; ``index.md`` -> its folder's name), as MkDocs titles a bare nav entry."""
    if page.is_file():
        for line in page.read_text(encoding="utf-8-sig").splitlines():
            m = re.match(r"#\s+(.+?)\s*#*\s*$", line)
            if m:
                return m.group(1)
    stem = page.parent.name if page.stem in ("index", "README") and page.parent.name else page.stem
    return stem.replace("-", " ").replace("_", " ").capitalize()


def nav_titles(config: Any, docs: Path) -> dict[str, str]:
    """Page (posix, below ``docs``) -> its title in ``config``'s ``nav`` (a round-trip or plain
    mapping); a page listed bare takes its first heading. Without MkDocs: these are the titles
    the generated tables link with (the contract and the cited-sources page)."""
    titles: dict[str, str] = {}

    def walk(items: Any) -> None:
        for item in items or ():
            if isinstance(item, str):
                if item.endswith(".md"):
                    titles.setdefault(item, _title_from_page(docs / item))
                continue
            for title, target in item.items():
                if isinstance(target, str):
                    if target.endswith(".md"):
                        titles.setdefault(target, str(title))
                else:
                    walk(target)

    walk(config.get("nav"))
    return titles


def snippet_bases(config: Any, root: Path) -> list[str]:
    """pymdownx.snippets' base paths (:func:`snippet_base_paths`) as ``config`` (``mkdocs.yml``,
    read) sets them for its ``markdown_extensions``."""
    for ext in config.get("markdown_extensions") or ():
        if hasattr(ext, "get") and SNIPPETS in ext:
            return snippet_base_paths(ext[SNIPPETS], root)
    return snippet_base_paths(None, root)


def snippet_options(config: Any, root: Path) -> dict[str, Any] | None:
    """pymdownx.snippets' options as the generated configuration gives them
    (:func:`generated_config`: ``base_path`` absolute at ``root``), None when ``config``
    (``mkdocs.yml``, read) does not use the extension."""
    for ext in config.get("markdown_extensions") or ():
        if ext == SNIPPETS:
            return {"base_path": snippet_base_paths(None, root)}
        if hasattr(ext, "get") and SNIPPETS in ext:
            options = dict(ext[SNIPPETS] or {})
            return {**options, "base_path": snippet_base_paths(options, root)}
    return None


def snippet_base_paths(options: Any, root: Path) -> list[str]:
    """pymdownx.snippets' ``base_path`` (a string or list; default ``["."]``) made absolute at
    ``root``. The extension makes relative entries absolute against the working directory, so
    a build started from another directory would include that directory's files."""
    bases = options.get("base_path", ["."]) if options else ["."]
    return [str((Path(root) / b).resolve()) for b in ([bases] if isinstance(bases, str) else bases)]


@dataclass
class Renderer:
    """Everything a page's rendering reads in one build: the project ``root``, its ``docs``
    folder, the scenarios, the ledger of what passed, the release matrix (None when never
    measured; holding only the rows measured on the scenarios' present files), the scenarios it
    has no such row for (``unmeasured``), the pinned Mermaid script and licence, the nav
    ``titles``, and the record of claimed sentences (``sentences``, None: not compared). The rules' coverage and the claims' context are built on first use (a site
    without a contract page needs no rules file)."""

    root: Path
    docs: Path
    scenarios: dict[str, Scenario]
    ledger: ledger_mod.Ledger
    matrix: matrix_mod.Matrix | None
    mermaid: tuple[Path, Path]
    titles: dict[str, str]
    unmeasured: tuple[str, ...] = ()
    sentences: Sentences | None = None
    snippet_bases: tuple[str, ...] = ()  # pymdownx.snippets' base paths, absolute (none: the root)
    pending: dict[str, tuple[int, int]] = field(default_factory=dict)
    factual: dict[str, PageReport] = field(default_factory=dict)
    _coverage: Any = field(default=None, repr=False)
    _claims: Context | None = field(default=None, repr=False)
    _pages: Any = field(default=None, repr=False)

    @classmethod
    def load(
        cls,
        root: Path,
        ledger_path: Path,
        docs: Path,
        titles: dict[str, str],
        sentences: str = "check",
        snippet_bases: list[str] | None = None,
        scenarios: list[Scenario] | None = None,
    ) -> "Renderer":
        """Read the scenarios (unless given: ``scenarios``, as the verify stage discovered them),
        the ledger, the matrix and the record of claimed sentences (used in
        the mode ``sentences``, one of :data:`~verified_docs.render.claim_record.MODES`), and
        fetch or check the Mermaid script. ``snippet_bases``: pymdownx.snippets' base paths as
        :func:`snippet_base_paths` gives them (default: the root).
        Raises :class:`SourceError` for a malformed scenario or record, :class:`FileNotFoundError` for
        a missing ledger, :class:`~verified_docs.render.vendor.VendorError` when the script cannot be had."""
        root = Path(root).resolve()
        by_name = {s.name: s for s in (discover_project(root) if scenarios is None else scenarios)}
        matrix_path = root / matrix_mod.MATRIX_FILE
        matrix = matrix_mod.load(matrix_path).current(by_name) if matrix_path.is_file() else None
        return cls(
            root,
            Path(docs).resolve(),
            by_name,
            ledger_mod.load(ledger_path),
            matrix,
            vendor.ensure(vendor.MERMAID, root),
            titles,
            tuple(n for n in by_name if matrix is None or n not in matrix.scenarios),
            Sentences.load(root, sentences),
            tuple(snippet_bases or snippet_base_paths(None, root)),
            load_pending(root),
        )

    def pages_by_scenario(self) -> dict[str, list[str]]:
        if self._pages is None:
            self._pages = pages_by_scenario(self.docs)
        return self._pages

    def coverage(self) -> Any:
        if self._coverage is None:
            rules = load_rules(self.root / RULES_FILE)
            self._coverage = coverage(rules, list(self.scenarios.values()), self.pages_by_scenario())
        return self._coverage

    def claims(self) -> Context:
        # It reads every page (for the evidence boxes, the matrix and the source claims) and
        # finds the installed toolnexus.
        if self._claims is None:
            try:
                package, version = installed_toolnexus()
            except FileNotFoundError as e:
                raise SourceError.at(self.root / "pyproject.toml", 0, str(e)) from None
            self._claims = Context(
                self.scenarios,
                self.ledger,
                self.root,
                self.matrix,
                scan_site(self.docs),
                package,
                version,
                self.sentences,
            )
        return self._claims

    def api_reference(self, directive: Directive, src_uri: str) -> str:
        """``directive`` (``verified-api-reference``) on the page ``src_uri``, read from the
        installed toolnexus, its SPEC rules linked on the page holding ``verified-contract``."""
        claims = self.claims()
        contract = next(
            (
                p.relative_to(self.docs).as_posix()
                for p in sorted(self.docs.rglob("*.md"))
                if any(d.kind == "contract" for d in find_directives(p.read_text(encoding="utf-8"), p))
            ),
            None,
        )
        rules = load_rules(self.root / RULES_FILE)
        return render_api_reference(
            directive, directive.names, src_uri, claims.package.parent, claims.toolnexus, rules, contract
        )

    def render_page(self, markdown: str, page: Path, src_uri: str, first_line: int = 1) -> str:
        """``markdown`` (the page at ``page``, ``src_uri`` posix below ``docs``, starting at
        file line ``first_line``) with every claim swapped for its link and every directive
        line for its rendering, each block carrying its directive's marker. Raises
        :class:`SourceError` at the page and line for an include line whose file is not there
        (:mod:`~verified_docs.render.includes`, at the including file's line), an unknown, malformed or unverified
        example, a claim its evidence contradicts, or a claim left in the result; at the
        program's or the page's line for a code line wider than the page
        (:mod:`~verified_docs.render.code_width`)."""
        source = markdown
        missing = include_problems(source, page, list(self.snippet_bases or (str(self.root),)), first_line)
        if missing:
            raise SourceError(*missing)
        # Every likely-factual sentence carries a claim or an advice mark (render/factual.py).
        report = check_page(markdown, page, src_uri, api_names(self.claims().package.parent), first_line)
        self.factual[src_uri] = report
        unclaimed = page_problems(report, self.pending, self.root)
        # Claims first: their replacement keeps every line where it was, so the directives'
        # line numbers still name the page as written. Advice marks go with them.
        markdown = render_claims(markdown, page, src_uri, self.claims())
        lines = markdown.splitlines(keepends=True)
        directives = find_directives(markdown, page, first_line)
        examples = {d: resolve(d, self.scenarios, self.ledger, self.root) for d in directives if d.kind == "example"}
        programs = [self.root / tab.program_path for e in examples.values() if e.show_code for tab in e.tabs]
        too_wide = shown_code_problems(page, source, programs, first_line)
        if too_wide:
            raise SourceError(*too_wide)
        # The runs whose output this page shows: their evidence box need not repeat it.
        shown = {(e.directive.scenario, e.run) for e in examples.values() if e.run and e.show_output}
        for d in reversed(directives):
            i = d.where.line - first_line
            if d.kind == "matrix":
                lines[i] = render_matrix(d, src_uri, self.matrix, self.scenarios, self.pages_by_scenario())
            elif d.kind == "contract":
                lines[i] = render_contract(d, src_uri, self.coverage(), self.titles)
            elif d.kind == "evidence":
                lines[i] = render_evidence(
                    d,
                    self.scenarios,
                    self.ledger,
                    self.root,
                    self.matrix,
                    shown_runs=frozenset(run for name, run in shown if name == d.scenario),
                    page_src_uri=src_uri,
                )
            elif d.kind == "install":
                lines[i] = render_install(d, self.root / "pyproject.toml", self.ledger)
            elif d.kind == "api-reference":
                lines[i] = self.api_reference(d, src_uri)
            elif d.kind == "diagram":
                lines[i] = render_diagrams(d, self.scenarios, self.ledger, self.root)
            elif d.kind == "sources":
                lines[i] = render_sources(d, src_uri, self.claims(), self.titles)
            else:
                lines[i] = render_example(examples[d], src_uri)
        rendered = "".join(lines)
        left = leftover_claims(rendered, page, source) + unclaimed
        if left:
            raise SourceError(*left)
        return rendered

    def published_files(self) -> Iterator[tuple[str, Path]]:
        """(path in the site, file to copy) of what the site serves beyond ``docs/``: the
        Mermaid script (``mkdocs.yml`` lists it first, so the theme never fetches it from a
        CDN) and its licence beside it, and every program and support file the ledger shows
        passing with these exact bytes, under ``verified-src/`` as it is in the project (each
        tab links to its whole runnable file; the guard checks the built site again)."""
        script, licence = self.mermaid
        site_path = vendor.MERMAID.site_path
        yield site_path, script
        yield f"{site_path.rsplit('/', 1)[0]}/{licence.parent.name}.LICENSE", licence
        for rel in sorted(self.ledger.programs):
            path = self.root / rel
            if self.ledger.doubt(rel, path) is None:
                yield f"{SOURCE_DIR}/{rel}", path


@dataclass(frozen=True)
class RenderedTree:
    """What :func:`render_tree` made: ``docs_dir`` (the rendered pages and files), ``config``
    (the generated ``mkdocs.yml``), ``site_dir`` (where it builds), the pages rendered (posix, below ``docs_dir``), how many
    files were written (the rest already held those bytes) or removed, ``edit_links``, the
    sentence saying where the edit links point (or why there are none), and the scenarios the
    release matrix has not measured as their files are now (``unmeasured``); the ``ledger`` and
    ``root`` it rendered from; how many claimed sentences were recorded (``recorded``), and the
    records whose claim is gone (``stale``: page, key); the pages rendered this time
    (``rendered``; the others of ``pages`` kept what an earlier render wrote, see
    :func:`render_tree`'s ``only``), and the files of ``docs_dir`` written or removed
    (``changed``, posix below it)."""

    docs_dir: Path
    config: Path
    site_dir: Path
    pages: tuple[str, ...]
    written: int
    removed: int
    edit_links: str
    unmeasured: tuple[str, ...] = ()
    ledger: Path | None = None
    root: Path | None = None
    recorded: int = 0
    stale: tuple[tuple[str, str], ...] = ()
    rendered: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()


def _put(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` atomically unless it already holds exactly that; True when written."""
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return False
    except OSError:
        pass
    write_atomic(path, data)
    return True


def generated_config(config: Any, root: Path, docs_dir: Path, site_dir: Path, config_dir: Path) -> tuple[Any, str]:
    """``config`` (round-trip ``mkdocs.yml``, changed in place and returned) for the rendered
    tree, to be written into ``config_dir``: ``docs_dir`` and ``site_dir`` relative to it
    (Zensical 0.0.73 requires both inside that folder, and panics on absolute paths), no ``hooks`` (everything they did is in the
    tree), ``edit_uri`` resolved from ``VERIFIED_DOCS_EDIT_URI`` or the git remote when the
    file leaves it empty (the links point at ``docs/`` as written, not at the rendered copy),
    ``repo_url`` and ``repo_name`` from it, with the theme's ``custom_dir`` (absolute, when
    the file sets none) the partial that links the header there
    (:data:`~verified_docs.render.edit_link.THEME_DIR`), pymdownx.snippets' ``base_path``
    absolute at ``root``. Also returns the sentence saying
    where the edit links came from."""
    edit_links = "edit links as mkdocs.yml sets them"
    if not config.get("edit_uri"):
        written_docs = (root / str(config.get("docs_dir", "docs"))).resolve().relative_to(root).as_posix()
        edit_uri, edit_links = resolve_edit_uri(root, written_docs)
        config["edit_uri"] = edit_uri or ""
    set_repository(config, config.get("edit_uri"))
    theme = config.get("theme")
    if config.get("repo_url") and hasattr(theme, "get") and not theme.get("custom_dir"):
        theme["custom_dir"] = str(THEME_DIR)  # absolute: a copy of the file elsewhere still finds it
    for key, path in (("docs_dir", docs_dir), ("site_dir", site_dir)):
        config[key] = os.path.relpath(path, config_dir)
    config.pop("hooks", None)
    for i, ext in enumerate(config.get("markdown_extensions") or ()):
        if ext == SNIPPETS:
            config["markdown_extensions"][i] = {SNIPPETS: {"base_path": snippet_base_paths(None, root)}}
        elif hasattr(ext, "get") and SNIPPETS in ext:
            options = ext[SNIPPETS]
            if options is None:
                ext[SNIPPETS] = options = {}
            options["base_path"] = snippet_base_paths(options, root)
    return config, edit_links


def _rendered_docs(
    renderer: Renderer,
    docs: Path,
    out_docs: Path,
    only: frozenset[str] | None = None,
    snippets: dict[str, Any] | None = None,
) -> tuple[dict[Path, bytes | Path], list[str], list[str]]:
    """What ``out_docs`` must hold (path -> its bytes, or the file to copy them from): every
    page of ``docs`` rendered (only those in ``only``, when given, that ``out_docs`` already
    holds: the others keep their rendered file), its include lines expanded with the
    pymdownx.snippets options ``snippets`` (:func:`~verified_docs.render.includes.expanded`;
    None: left to the generator), every other file of it, and the files the
    site publishes; the pages (posix, below ``docs``), and those rendered this time. Raises
    :class:`SourceError` with every problem of every page rendered, each once: first those of
    the scan of all pages (:func:`~verified_docs.render.claim_context.scan_site`), alone,
    since no page renders without it."""
    # Every page's claims need the scan of all pages: a malformed directive or claim, or an
    # unclosed fence, is reported here once, not again by each page that needed the scan.
    renderer.claims()
    wanted: dict[Path, bytes | Path] = {}
    pages: list[str] = []
    rendered: list[str] = []
    problems: list[Problem] = []
    for path in sorted(p for p in docs.rglob("*") if p.is_file()):
        rel = path.relative_to(docs).as_posix()
        if path.suffix != ".md":
            wanted[out_docs / rel] = path
            continue
        if only is not None and rel not in only and (out_docs / rel).is_file():
            wanted[out_docs / rel] = out_docs / rel  # rendered earlier from the same inputs
            pages.append(rel)
            continue
        rendered.append(rel)
        try:
            text = renderer.render_page(path.read_text(encoding="utf-8-sig"), path, rel)
        except SourceError as e:
            problems += e.problems
            continue
        if snippets is not None:
            try:
                text = expanded(text, snippets, path)
            except SourceError as e:
                problems += e.problems
                continue
        wanted[out_docs / rel] = text.encode("utf-8")
        pages.append(rel)
    if problems:
        # Several examples, on several pages, may show one program, and a file of docs/ may be a
        # page and included by another: each fault once, as first found.
        unique: dict[tuple[Location, str], Problem] = {}
        for p in problems:
            unique.setdefault((p.where, p.what), p)
        raise SourceError(*unique.values())
    for site_path, source in renderer.published_files():
        wanted[out_docs / site_path] = source
    return wanted, pages, rendered


def _write_tree(wanted: dict[Path, bytes | Path], out_docs: Path) -> tuple[list[Path], list[Path]]:
    """Make ``out_docs`` hold exactly ``wanted`` (see :func:`_rendered_docs`): write each file
    whose bytes differ, remove files of an earlier render and the folders left empty. Returns
    the files written and the files removed."""
    written = [
        target
        for target, content in wanted.items()
        if (content != target or not isinstance(content, Path))
        and _put(target, content if isinstance(content, bytes) else content.read_bytes())
    ]
    removed = []
    if out_docs.is_dir():
        for path in sorted(out_docs.rglob("*"), reverse=True):
            if path.is_file() and path not in wanted:
                path.unlink()
                removed.append(path)
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
    return written, removed


def render_tree(
    root: Path,
    ledger_path: Path,
    out_dir: Path,
    site_dir: Path,
    config_path: Path | None = None,
    sentences: str = "check",
    only: frozenset[str] | None = None,
    scenarios: list[Scenario] | None = None,
    factual: list[PageReport] | None = None,
) -> RenderedTree:
    """Render the project at ``root`` (its ``mkdocs.yml``, or ``config_path``) into ``out_dir``:
    ``out_dir/docs/`` and ``out_dir/mkdocs.yml`` building into ``site_dir`` (see the module
    docstring). Files already holding the bytes they would get are left alone, and files of an
    earlier render that this one does not make are removed, so the tree is exactly this build's.
    Claimed sentences are compared with ``rules/claimed-sentences.json`` in the mode
    ``sentences`` (:data:`~verified_docs.render.claim_record.MODES`); in mode ``record`` the
    sentences recorded are written to it, even when a page fails. ``only`` (pages, posix
    below ``docs/``) renders just those, where ``out_dir`` holds every other page from an
    earlier render of the same inputs (:mod:`~verified_docs.render.page_inputs` says which);
    a page it does not hold yet is rendered too. ``scenarios``: the project's, as the verify
    stage discovered them (default: discovered again). ``factual``, when given, gets each
    rendered page's report on its likely-factual sentences (:mod:`~verified_docs.render.factual`),
    even when a page fails.

    Raises :class:`SourceError` naming the page and line for any directive or claim that cannot
    be rendered (every problem of every page, not only the first), or ``mkdocs.yml`` that
    cannot be read; :class:`FileNotFoundError` when there is no ledger;
    :class:`~verified_docs.render.vendor.VendorError` when the Mermaid script cannot be had; :class:`ValueError`
    when ``out_dir`` would overwrite ``docs/`` or ``site_dir`` is not inside ``out_dir``."""
    root = Path(root).resolve()
    config_path = Path(config_path or root / CONFIG_NAME).resolve()
    config, docs = _docs_dir(config_path)
    out_dir = Path(out_dir).resolve()
    out_docs = out_dir / "docs"
    if out_docs == docs or docs in out_docs.parents or out_docs in docs.parents:
        raise ValueError(f"{out_docs}: the rendered tree may not overlap {docs}, which is written by hand")
    renderer = Renderer.load(
        root, ledger_path, docs, nav_titles(config, docs), sentences, snippet_bases(config, root), scenarios
    )
    try:
        wanted, pages, rendered = _rendered_docs(renderer, docs, out_docs, only, snippet_options(config, root))
    finally:
        if renderer.sentences is not None:
            renderer.sentences.save()
        if factual is not None:
            factual.extend(renderer.factual[page] for page in sorted(renderer.factual))
    written, removed = _write_tree(wanted, out_docs)
    changed = tuple(p.relative_to(out_docs).as_posix() for p in written + removed)
    site_dir = Path(site_dir).resolve()
    if out_dir not in site_dir.parents:
        raise ValueError(f"{site_dir}: the site must be built inside {out_dir} (Zensical builds only there)")
    generated, edit_links = generated_config(config, root, out_docs, site_dir, out_dir)
    buf = io.StringIO()
    buf.write(f"# Generated by verified_docs.render.pages from {config_path.name}: do not edit.\n")
    _yaml().dump(generated, buf)
    config_written = _put(out_dir / CONFIG_NAME, buf.getvalue().encode("utf-8"))
    record = renderer.sentences
    return RenderedTree(
        out_docs,
        out_dir / CONFIG_NAME,
        site_dir,
        tuple(pages),
        len(written) + config_written,
        len(removed),
        edit_links,
        renderer.unmeasured,
        Path(ledger_path).resolve(),
        root,
        record.added if record else 0,
        tuple(record.stale(docs)) if record else (),
        tuple(rendered),
        changed,
    )


def _docs_dir(config_path: Path) -> tuple[Any, Path]:
    """The ``mkdocs.yml`` at ``config_path`` (round-trip) and the ``docs/`` folder it names."""
    config = load_config(config_path)
    return config, (config_path.parent / str(config.get("docs_dir", "docs"))).resolve()


def _named(page: str, only: tuple[str, ...]) -> bool:
    """Whether ``page`` (posix, below ``docs/``) matches a pattern of ``only`` (all match none)."""
    return not only or any(fnmatch.fnmatch(page, p.removeprefix("docs/")) for p in only)


def named_pages(root: Path, only: tuple[str, ...] = ()) -> list[str]:
    """The pages (posix, below ``docs/``) of the project at ``root`` that ``only`` names (fnmatch
    patterns, ``docs/`` optional; none: every page). Raises :class:`SourceError` when a pattern
    names no page."""
    _, docs = _docs_dir(Path(root).resolve() / CONFIG_NAME)
    pages = sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*.md"))
    for pattern in only:
        if not any(_named(rel, (pattern,)) for rel in pages):
            raise SourceError.at(docs, 0, f"no page matches {pattern!r}", f"pages: {', '.join(pages)}")
    return [rel for rel in pages if _named(rel, only)]


def confirm_claims(root: Path, ledger_path: Path, only: tuple[str, ...] = ()) -> tuple[int, list[Problem]]:
    """``confirm-claims``: check every claim of every page (of the pages ``only`` names, as
    fnmatch patterns below ``docs/``, when given) again, with the build's own
    :func:`~verified_docs.render.claims.render_claims` against the ledger at ``ledger_path``,
    and record in ``rules/claimed-sentences.json`` the sentence of each claim whose evidence
    held; drop the records of those pages' claims that are gone. Returns how many records were
    added, changed or dropped, and the problems: each claim whose evidence failed (not
    recorded), at its ``page:line``. Raises :class:`SourceError` when a pattern names no page."""
    root = Path(root).resolve()
    config, docs = _docs_dir(root / CONFIG_NAME)
    pages = named_pages(root, only)
    renderer = Renderer.load(root, ledger_path, docs, nav_titles(config, docs), "confirm")
    ctx, record = renderer.claims(), renderer.sentences
    assert record is not None  # load always reads it
    problems: list[Problem] = []
    for rel in pages:
        try:
            render_claims((docs / rel).read_text(encoding="utf-8-sig"), docs / rel, rel, ctx)
        except SourceError as e:
            problems += e.problems
    return record.save([(page, key) for page, key in record.stale(docs) if _named(page, only)]), problems
