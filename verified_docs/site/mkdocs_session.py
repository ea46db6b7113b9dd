"""MkDocs kept loaded between builds, rebuilding only the pages it is told changed: the author
loop's generator (:mod:`verified_docs.serve.incremental`).

:func:`verified_docs.site.generator.build` loads the configuration, the theme and the plugins
and builds every page, each time. Here a :class:`MkDocsSession` does that once
(:meth:`~MkDocsSession.full`), keeps the loaded configuration, files, navigation and theme
environment, and then (:meth:`~MkDocsSession.pages`) reads, renders and writes again only the
pages named, strictly, into the same ``site_dir``.

Why our own loop over MkDocs' build steps (``mkdocs.commands.build``'s ``_populate_page`` and
``_build_page``, the functions its ``build()`` calls) rather than ``build(config, dirty=True)``:
``dirty`` picks pages by file time, so it misses a page whose included program changed (the
rendered Markdown holds an include line, not the program); it logs a warning on every dirty
build, which ``strict`` turns into a failure; and Material's search index, under dirty builds,
keeps only the first page rebuilt right. Here the caller names the pages, the warnings are
counted as in a full build, and the search entries are kept per page, so the index written is
the one a full build writes (same entries, same order).

What a rebuild of some pages keeps correct: each rebuilt page's HTML, the search index, every
anchor link of the site (checked again over every page, from each page's last render). What it
cannot: every page's navigation, when a page's title changed: :meth:`~MkDocsSession.pages`
then writes every page again (its return value says so). A change of the set of pages, of the
configuration or of a file outside ``docs/`` (the theme) needs :meth:`~MkDocsSession.full`.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

from verified_docs.site.generator import GeneratorFailed

SEARCH = "material/search"


class MkDocsSession:
    """One generated configuration (``config``, a ``mkdocs.yml`` the render stage wrote) built
    into its ``site_dir``, loaded once. Not thread-safe; one build at a time."""

    def __init__(self, config: Path, site_dir: Path) -> None:
        self.config_path, self.site_dir = Path(config), Path(site_dir)
        self._config: Any = None
        self._files: Any = None
        self._nav: Any = None
        self._env: Any = None
        self._search_entries: dict[str, list[dict]] = {}
        self._titles: dict[str, str | None] = {}
        self._ready = False

    @property
    def loaded(self) -> bool:
        """Whether a full build passed, so :meth:`pages` may rebuild some pages."""
        return self._ready

    def knows(self, src_uri: str) -> bool:
        """Whether the loaded build has the file ``src_uri`` (posix, below ``docs_dir``)."""
        return self._ready and self._files.get_file_from_path(src_uri) is not None

    def full(self) -> list[str]:
        """Load the configuration, its theme and plugins, and build every page into a cleaned
        ``site_dir`` (as ``mkdocs build --strict`` does). Returns the pages built (src_uri).
        Raises :class:`~verified_docs.site.generator.GeneratorFailed` on a warning or an error
        (the session is unloaded then: the next build is full)."""
        from mkdocs import utils
        from mkdocs.config import load_config
        from mkdocs.structure.files import get_files, set_exclusions
        from mkdocs.structure.nav import get_navigation
        from mkdocs.structure.pages import Page

        self._ready = False
        with _strict("mkdocs build --strict"):
            if self._config is not None:
                self._config.plugins.on_shutdown()
            config = load_config(str(self.config_path), strict=True, site_dir=str(self.site_dir))
            config.plugins.on_startup(command="build", dirty=False)
            self._config = config = config.plugins.on_config(config)
            config.plugins.on_pre_build(config=config)
            utils.clean_directory(config.site_dir)
            files = get_files(config)
            env = config.theme.get_env()
            files.add_files_from_theme(env, config)
            files = config.plugins.on_files(files, config=config)
            set_exclusions(files, config)
            nav = config.plugins.on_nav(get_navigation(files, config), config=config, files=files)
            self._files, self._nav, self._search_entries, self._titles = files, nav, {}, {}
            for file in files.documentation_pages():
                if file.page is None:
                    Page(None, file, config)
                self._populate(file.page)
            env = config.plugins.on_env(env, config=config, files=files)
            files.copy_static_files()
            self._env = env
            self._templates()
            built = self._write(files.documentation_pages())
            self._finish()
        self._ready = True
        return built

    def pages(self, src_uris: set[str]) -> list[str]:
        """Read, render and write again the pages ``src_uris`` (posix, below ``docs_dir``),
        copy the other files of ``docs_dir`` whose copy in the site is older, write the search
        index, and check every page's anchor links again. When a page's title changed, every
        page is written again (their navigation shows it). Returns the pages written (src_uri).
        Raises ``KeyError`` for a page the session does not have (build :meth:`full` then),
        :class:`~verified_docs.site.generator.GeneratorFailed` on a warning (every step was
        done, so the session stays loaded) or an error (the session is unloaded then: the next
        build must be full)."""
        if not self.loaded:
            raise RuntimeError("MkDocsSession.pages() before a full build passed")
        files = self._files
        pages = [files.get_file_from_path(uri) for uri in sorted(src_uris)]
        missing = [uri for uri, f in zip(sorted(src_uris), pages, strict=True) if f is None or f.page is None]
        if missing:
            raise KeyError(", ".join(missing))
        strict = _strict("mkdocs build --strict")
        try:
            with strict:
                titles = dict(self._titles)
                for file in pages:
                    self._populate(file.page)
                docs = files.documentation_pages()
                every = any(self._titles.get(f.src_uri) != titles.get(f.src_uri) for f in pages)
                files.copy_static_files(dirty=True)
                if every:  # the 404 page and the sitemap show the navigation too
                    self._templates()
                built = self._write(docs if every else pages)
                self._finish()
        except GeneratorFailed:
            if not strict.warned:  # raised halfway: the pages held may be half updated
                self._ready = False
            raise
        except BaseException:
            self._ready = False
            raise
        return built

    def _templates(self) -> None:
        from mkdocs.commands.build import _build_extra_template, _build_theme_template

        config, files, nav, env = self._config, self._files, self._nav, self._env
        for template in config.theme.static_templates:
            _build_theme_template(template, env, files, config, nav)
        for template in config.extra_templates:
            _build_extra_template(template, files, config, nav)

    def _populate(self, page: Any) -> None:
        from mkdocs.commands.build import _populate_page

        _populate_page(page, self._config, self._files)
        self._titles[page.file.src_uri] = page.title

    def _write(self, files: Any) -> list[str]:
        """Write each of ``files``' pages, keeping what the search plugin indexed of each."""
        from mkdocs.commands.build import _build_page

        config, docs = self._config, self._files.documentation_pages()
        search = config.plugins.get(SEARCH)
        for file in files:
            if search is not None and hasattr(search, "search_index"):
                search.search_index.entries = []
            _build_page(file.page, config, docs, self._nav, self._env)
            if search is not None and hasattr(search, "search_index"):
                self._search_entries[file.src_uri] = list(search.search_index.entries)
        return [f.src_uri for f in files]

    def _finish(self) -> None:
        """Anchor links of every page, then the search index of every page, in the order a
        full build adds them, and the other plugins' end of build."""
        config, files = self._config, self._files
        docs = files.documentation_pages()
        for file in docs:
            file.page.validate_anchor_links(files=files, log_level=config.validation.links.anchors)
        search = config.plugins.get(SEARCH)
        if search is not None and hasattr(search, "search_index"):
            search.search_index.entries = [e for f in docs for e in self._search_entries.get(f.src_uri, [])]
            search.search_index_prev = None
        config.plugins.on_post_build(config=config)

    def close(self) -> None:
        """The plugins' shutdown; the session is unloaded."""
        if self._config is not None:
            self._config.plugins.on_shutdown()
        self._config, self._ready = None, False


class _strict:
    """Context: MkDocs' log to stderr as the build prints it, warnings counted; on leaving,
    :class:`GeneratorFailed` when one was logged (``strict``) or MkDocs raised."""

    def __init__(self, what: str) -> None:
        self.what, self.warned = what, False

    def __enter__(self) -> "_strict":
        from mkdocs import utils

        self.log = logging.getLogger("mkdocs")
        self.handler = logging.StreamHandler(sys.stderr)
        self.handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
        self.counter = utils.CountHandler()
        self.counter.setLevel(logging.WARNING)
        self.log.addHandler(self.handler)
        self.log.addHandler(self.counter)
        self.log.setLevel(logging.INFO)
        return self

    def __exit__(self, kind, error, tb) -> None:
        from mkdocs.exceptions import Abort, BuildError, MkDocsException

        self.log.removeHandler(self.handler)
        self.log.removeHandler(self.counter)
        if isinstance(error, (Abort, BuildError, MkDocsException)):
            raise GeneratorFailed(f"{self.what} failed: {error}") from None
        if error is None and (counts := self.counter.get_counts()):
            self.warned = True
            counted = ", ".join(f"{n} {level.lower()}s" for level, n in counts)
            raise GeneratorFailed(f"{self.what} failed: Aborted with {counted} in strict mode!")
