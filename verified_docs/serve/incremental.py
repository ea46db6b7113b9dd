"""The author loop's site build, kept between cycles: only the pages whose inputs changed are
rendered and built again, then the whole site is guarded and the served copy updated.

One :class:`IncrementalSite` per serve session. Each :meth:`~IncrementalSite.build`:

1. the docs' Python fences, as the build runs them (remembered while unchanged);
2. each page's digest (:func:`~verified_docs.render.page_inputs.page_digests`), compared with
   the last build that got through the generator: the pages whose digest changed are the
   *changed pages*;
3. the render stage for the changed pages only (``render_tree(only=...)``; the others keep
   their rendered file);
4. the generator: with MkDocs, a :class:`~verified_docs.site.mkdocs_session.MkDocsSession`
   rebuilds the changed pages (the first build, a page added or removed, a file other than a
   page added, or every page changed: a full build in the same session); with Zensical, a
   strict build of the whole tree by a Zensical kept loaded
   (:class:`~verified_docs.site.generator.ZensicalWorker`), whose own cache (``.cache/`` beside
   the configuration) answers the unchanged pages' Markdown;
5. the code links of the pages written, the twins of the changed pages (the others kept),
   ``llms.txt`` and ``llms-full.txt`` whole (made while Zensical builds, written after it);
6. the guard of the whole site, as ``nox -s docs`` runs it (each page's HTML is parsed once per
   text, so an unchanged page costs a read), and only then the served copy updated file by
   file (:func:`~verified_docs.site.publish.sync_into`).

Any failure raises as the build's stages raise; the served copy is then left as it was.
"""

from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from verified_docs import build as pipeline
from verified_docs import ledger as ledger_mod
from verified_docs.errors import StageFailed
from verified_docs.fences.stage import Fences
from verified_docs.files import write_atomic
from verified_docs.render.page_inputs import page_digests
from verified_docs.scenario.digest import digests_kept
from verified_docs.scenario.records import Scenario
from verified_docs.site.generator import GeneratorFailed, ZensicalWorker
from verified_docs.site.llms_txt import LlmFiles, plan_llm_files
from verified_docs.site.mkdocs_session import MkDocsSession
from verified_docs.site.publish import sync_into
from verified_docs.site.twin_guard import read_ahead

RENDERED = Path("build") / "serve" / "rendered"


@dataclass(frozen=True)
class Built:
    """What one :meth:`IncrementalSite.build` did: ``full`` (every page rendered and built),
    the pages rendered (posix, below ``docs/``) and the number of HTML pages the generator
    wrote, the files the served copy got or lost."""

    full: bool
    rendered: tuple[str, ...]
    built: int
    synced: int


class IncrementalSite:
    """The site of the project at ``root`` built with ``generator`` into
    ``root/build/serve/rendered``, for one serve session (not thread-safe)."""

    def __init__(self, root: Path, generator: str = pipeline.DEFAULT_GENERATOR) -> None:
        self.root, self.generator = Path(root).resolve(), generator
        self.out = self.root / RENDERED
        self._digests: dict[str, str] = {}
        self._twins: dict = {}
        self._session: MkDocsSession | None = None
        self._zensical: ZensicalWorker | None = None
        self._linked: dict[Path, tuple[str, bytes]] = {}  # HTML file -> (link key, linked bytes)
        self._keys: dict[Path, str] = {}

    def build(self, served: Path, scenarios: list[Scenario] | None = None) -> Built:
        """Build the changed pages (see the module docstring) and update ``served``.
        ``scenarios``: the project's, as this cycle's verify stage discovered them. Raises
        :class:`~verified_docs.errors.StageFailed` (details printed to stderr) or
        :class:`~verified_docs.errors.SourceError`; ``served`` is untouched then."""
        root = self.root
        fences = Fences(root, force=False)
        # The page digests and the release matrix's rows read each scenario's files once, here,
        # just before the render stage reads them (not in verify, which can take seconds: a
        # file saved and put back meanwhile would leave a page digested from other bytes).
        with digests_kept():
            return self._build(root, fences, served, scenarios)

    def _build(self, root: Path, fences: Fences, served: Path, scenarios: list[Scenario] | None) -> Built:
        from verified_docs.scenario.load import discover_project

        try:
            fences.finish()
            found = discover_project(root) if scenarios is None else scenarios
            ledger = ledger_mod.load(root / ledger_mod.DEFAULT_LEDGER)
            digests = page_digests(root, root / "docs", {s.name: s for s in found}, ledger)
            changed = {page for page, d in digests.items() if self._digests.get(page) != d}
            full = set(digests) != set(self._digests) or changed == set(digests)
            tree = pipeline.render(
                root, self.out, report=False, only=None if full else frozenset(changed), scenarios=found
            )
            built_pages, llm_files = self._generate_and_plan_twins(tree, full, changed)
            pages = None if built_pages is None else {self._html(tree, p) for p in built_pages}
            if pages is None and self.generator != "mkdocs":
                pages = self._kept_links(tree, digests)
            pipeline.link_code(tree, pages)
            self._keep_links(tree, digests, pages)
            self._twins = llm_files.every
            llm_files.write()
            self._digests = digests  # the rendered tree, the HTML and the twins all hold these inputs
            pipeline.guard(root, tree.site_dir)
        finally:
            fences.stop()
        synced = sync_into(tree.site_dir, served)
        return Built(full, tree.rendered, len(digests) if built_pages is None else len(built_pages), synced)

    def _generate_and_plan_twins(self, tree, full: bool, changed: set[str]) -> tuple[set[str] | None, LlmFiles]:
        """:meth:`_generate`, and the twins, ``llms.txt`` and ``llms-full.txt`` made (not
        written: the generator may clean the site) for every page, only the changed pages' twins
        made anew. Under Zensical, whose build runs in its own process, they are made meanwhile
        in this one, and parsed ahead for the guard
        (:func:`~verified_docs.site.twin_guard.read_ahead`): the twins read only the rendered
        tree. A generator failure is raised first, as the stages run in that order."""

        def plan() -> LlmFiles:
            return plan_llm_files(tree.config, tree.pages, rewrite=None if full else changed, kept=self._twins)

        if self.generator == "mkdocs":  # in this process: nothing to overlap
            return self._generate(tree, full, changed), plan()
        with ThreadPoolExecutor(max_workers=1) as pool:
            building = pool.submit(self._generate, tree, full, changed)
            try:
                planned = plan()
                read_ahead((twin.text for twin in planned.every.values()), planned.full)
            except Exception:
                building.result()  # the generator's failure, when there is one, comes first
                raise
            return building.result(), planned

    def _generate(self, tree, full: bool, changed: set[str]) -> set[str] | None:
        """Build the HTML; the pages written (src_uri), None for every page."""
        from verified_docs.site.generator import build

        if self.generator != "mkdocs":
            self._digests = {}  # a failure below must not leave pages counted as built
            if self._zensical is None:
                self._zensical = ZensicalWorker()
            try:
                build(self.generator, tree.config, tree.site_dir, zensical=self._zensical)
            except GeneratorFailed as e:
                raise StageFailed(str(e)) from None
            return None

        others = [c for c in tree.changed if not c.endswith(".md")]
        if self._session is None:
            self._session = MkDocsSession(tree.config, tree.site_dir)
        session = self._session
        structural = any(not (tree.docs_dir / c).is_file() or not session.knows(c) for c in others)
        self._digests = {}  # until the generator got through: the next build is full
        try:
            if full or structural or not session.loaded:
                session.full()
                return None
            try:
                return set(session.pages(changed))
            except KeyError:  # a page the loaded build lacks: build them all
                session.full()
                return None
        except GeneratorFailed as e:
            raise StageFailed(str(e)) from None

    def _link_keys(self, tree, digests: dict[str, str]) -> dict[Path, str]:
        """Each page's HTML file -> what its code links follow from: the page's inputs (its
        digest: the programs it shows and their ledger entries), the HTML the generator wrote,
        and every page holding API reference entries (the links' targets)."""
        from verified_docs.site.code_links import API_ATTRIBUTE

        written = {
            self._html(tree, uri): (uri, path_bytes) for uri in digests if (path_bytes := _bytes(self._html(tree, uri)))
        }
        targets = hashlib.sha256()
        for path in sorted(tree.site_dir.rglob("*.html")):
            text = written[path][1] if path in written else path.read_bytes()
            if API_ATTRIBUTE.encode() in text:
                targets.update(path.as_posix().encode() + b"\0" + hashlib.sha256(text).digest())
        return {
            path: f"{digests[uri]}:{hashlib.sha256(text).hexdigest()}:{targets.hexdigest()}"
            for path, (uri, text) in written.items()
        }

    def _kept_links(self, tree, digests: dict[str, str]) -> set[Path]:
        """After a generator that writes every page (Zensical): put back the linked HTML of
        each page whose link key (:meth:`_link_keys`) is what it was when it was linked; the
        HTML files left to link (linking is most of what such a save costs besides the
        generator: about 0.3 s for this site's 33 pages)."""
        self._keys = self._link_keys(tree, digests)
        left = set(tree.site_dir.rglob("*.html"))
        for path, key in self._keys.items():
            kept = self._linked.get(path)
            if kept is not None and kept[0] == key:
                if kept[1] != path.read_bytes():
                    write_atomic(path, kept[1])
                left.discard(path)
        return left

    def _keep_links(self, tree, digests: dict[str, str], linked: set[Path] | None) -> None:
        """Remember each page's linked HTML by its link key (only under Zensical)."""
        if self.generator == "mkdocs" or linked is None:
            return
        for path, key in self._keys.items():
            if path in linked:
                self._linked[path] = (key, path.read_bytes())

    @staticmethod
    def _html(tree, src_uri: str) -> Path:
        from verified_docs.site.twins import page_address

        address = page_address(src_uri)
        return tree.site_dir / (address + "index.html" if address.endswith("/") or not address else address)

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
        if self._zensical is not None:
            self._zensical.close()


def _bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
