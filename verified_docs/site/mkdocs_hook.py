"""MkDocs hook: a thin adapter over the render stage (:mod:`verified_docs.render.pages`), for
``mkdocs serve`` and builds straight from ``mkdocs.yml``. With :mod:`verified_docs.site.generator` (which runs MkDocs in process), the only module that imports MkDocs.

``python -m verified_docs build`` does not use it: it renders the pages into ``build/rendered/``
first and hands the generator a configuration without hooks. Here the same
:class:`~verified_docs.render.pages.Renderer` renders each page as MkDocs reads it, and the
files it publishes are added to MkDocs' files, so both ways give the same site. Registered in
``mkdocs.yml`` under ``hooks:``; the ledger comes from ``VERIFIED_DOCS_LEDGER`` (default
``build/verified-ledger.json``). A page that cannot be rendered fails the build at its page and
line.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from verified_docs import ledger as ledger_mod
from verified_docs.errors import SourceError, annotate, display_path
from verified_docs.render import vendor
from verified_docs.render.directive import body_start
from verified_docs.render.edit_link import THEME_DIR, resolve_edit_uri, set_repository
from verified_docs.render.pages import SNIPPETS, Renderer, load_config, nav_titles, snippet_base_paths

_state: dict[str, Renderer] = {}
log = logging.getLogger("mkdocs.hooks.verified_docs")


def on_config(config: Any) -> Any:
    """Load the renderer (scenarios, ledger, matrix, Mermaid script, nav titles) once per
    build; make pymdownx.snippets' base paths absolute at the project root; resolve the edit
    links when ``edit_uri`` is empty, and the header's repository link from them."""
    config_file = Path(config["config_file_path"]).resolve()
    root = config_file.parent
    ledger_path = root / os.environ.get("VERIFIED_DOCS_LEDGER", str(ledger_mod.DEFAULT_LEDGER))
    docs = Path(config["docs_dir"])
    try:
        titles = nav_titles(load_config(config_file), docs)
        bases = snippet_base_paths(config["mdx_configs"].get(SNIPPETS), root)
        _state["renderer"] = Renderer.load(root, ledger_path, docs, titles, snippet_bases=bases)
        # The scan of every page that each page's rendering needs: its problems once, here,
        # not as the error of whichever page MkDocs happens to read first.
        _state["renderer"].claims()
    except (SourceError, FileNotFoundError, vendor.VendorError) as e:
        if isinstance(e, SourceError):
            annotate(e.problems, "bad input")
        raise PluginError(str(e)) from None
    options = config["mdx_configs"].get(SNIPPETS)
    if options is not None:
        options["base_path"] = snippet_base_paths(options, root)
    log.info(
        f"verified_docs: nothing is verified here: the pages render from the last ledger "
        f"({display_path(ledger_path)}) into {config['site_dir']}, never site/; "
        "`nox -s docs` verifies, then publishes site/"
    )
    if not config.get("edit_uri"):
        docs_dir = docs.resolve().relative_to(root).as_posix()
        edit_uri, source = resolve_edit_uri(root, docs_dir)
        config["edit_uri"] = edit_uri or ""
        log.info(f"verified_docs: edit links {source}" if edit_uri else f"verified_docs: {source}")
    set_repository(config, config.get("edit_uri"))
    if config.get("repo_url"):
        config["theme"].dirs.insert(0, str(THEME_DIR))  # the header's link, fetching nothing
    return config


def on_files(files: Any, config: Any) -> Any:
    """Add what the renderer publishes beyond ``docs/`` (the Mermaid script and its licence,
    the verified programs under ``verified-src/``)."""
    for site_path, source in _state["renderer"].published_files():
        files.append(File.generated(config, site_path, abs_src_path=str(source)))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """``markdown`` rendered by the render stage's :meth:`~verified_docs.render.pages.Renderer.render_page`."""
    page_path = Path(config["docs_dir"]) / page.file.src_path
    try:
        # Lines count from the top of the file, front matter included, as the guard reads it.
        src = page.file.abs_src_path
        first = body_start(Path(src).read_text(encoding="utf-8-sig"), markdown) if src else 1
        return _state["renderer"].render_page(markdown, page_path, page.file.src_uri, first)
    except SourceError as e:
        annotate(e.problems, "page check failed (claim or directive)")
        raise PluginError(str(e)) from None
