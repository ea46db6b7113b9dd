"""Read a built HTML page as the guard sees it: the text of each ``<pre>`` block, in order;
each directive marker (:data:`~verified_docs.render.directive.MARKER_ATTRIBUTE`) with the tags and
classes of the elements open around it; and what the page rules read (:mod:`verified_docs.site.page_rules`):
every ``id``, each heading's id and text, the text of each paragraph of the content, and the
addresses the page makes the browser load. The standard library's HTML parser; no browser.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from typing import ContextManager

from verified_docs.render.directive import MARKER_ATTRIBUTE
from verified_docs.scoped_memo import ScopedMemo
from verified_docs.site.code_links import LINK_CLASS


@dataclass(frozen=True)
class CodeBlock:
    """The text of one ``<pre>`` in a built page; ``index`` is 1-based within the page."""

    page: Path
    index: int
    text: str


# Built pages read inside pages_read_once(), by path.
_PAGES: ScopedMemo[str] = ScopedMemo()


def pages_read_once() -> ContextManager[None]:
    """Inside the block, :func:`read_html` reads each file once. The guard's checks each read
    every page of the site (about 5 MB here), and the author loop guards on every save; the
    one text object shared also makes the memos keyed by a page's text cheap to look up (a
    string keeps its hash). The site must not change inside the block: the generator is done
    before the guard starts. Nested blocks share the outer one's texts."""
    return _PAGES.kept()


def read_html(page: Path) -> str:
    """The text of the built file ``page`` (UTF-8), read once inside :func:`pages_read_once`.
    Raises ``OSError`` when it cannot be read."""
    return _PAGES.get(Path(page), lambda: Path(page).read_text(encoding="utf-8"))


# Elements that never have an end tag, so never stay open around a marker.
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


# Elements whose address attribute the browser loads as it shows the page (a link's href is
# loaded only for these rel values; an <a> is loaded only when followed).
_LOADS = {
    "img": "src",
    "script": "src",
    "iframe": "src",
    "source": "src",
    "video": "src",
    "audio": "src",
    "embed": "src",
    "track": "src",
    "object": "data",
    "input": "src",
}
_LOADED_LINKS = {"stylesheet", "icon", "preload", "modulepreload", "prefetch", "manifest", "apple-touch-icon"}
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}


@dataclass(frozen=True)
class ParsedPage:
    """What the guard reads from one HTML page: the text of each ``<pre>``, in order; each
    directive marker's value with the tags and classes of the elements around it; every ``id``
    attribute; each heading's (id, text); the text of each ``<p>`` inside the content
    (``.md-content``); the addresses it loads (``img``/``script``/... ``src``, a
    stylesheet's or icon's ``href``, ``srcset`` entries); and the ``href`` of each code link
    (an ``a`` of class :data:`~verified_docs.site.code_links.LINK_CLASS`), in order."""

    blocks: tuple[str, ...]
    markers: tuple[tuple[str, frozenset[tuple[str, str]]], ...]
    ids: tuple[str, ...]
    headings: tuple[tuple[str, str], ...]
    paragraphs: tuple[str, ...]
    loads: tuple[str, ...]
    code_links: tuple[str, ...]


class _PageParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.current: list[str] = []
        self.blocks: list[str] = []
        self.open: list[tuple[str, frozenset[str]]] = []
        self.markers: list[tuple[str, frozenset[tuple[str, str]]]] = []
        self.ids: list[str] = []
        self.loads: list[str] = []
        self.headings: list[tuple[str, str]] = []
        self.paragraphs: list[str] = []
        self.code_links: list[str] = []
        self.heading: tuple[str, list[str]] | None = None  # (id, texts) of the heading open
        self.paragraph: list[str] | None = None  # texts of the content paragraph open

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = self._note(attrs)
        self._loaded(tag, values)
        if tag == "a" and LINK_CLASS in (values.get("class") or "").split():
            self.code_links.append(values.get("href") or "")
        if tag == "pre":
            self.depth += 1
        elif tag in _HEADINGS:
            self.heading = (values.get("id") or "", [])
        elif tag == "p" and any("md-content" in classes for _, classes in self.open):
            self.paragraph = []
        if tag not in _VOID:
            self.open.append((tag, frozenset((values.get("class") or "").split())))

    def _loaded(self, tag: str, values: dict[str, str | None]) -> None:
        if tag in _LOADS and values.get(_LOADS[tag]):
            self.loads.append(str(values[_LOADS[tag]]))
        if tag == "link" and values.get("href") and _LOADED_LINKS & set((values.get("rel") or "").lower().split()):
            self.loads.append(str(values["href"]))
        for entry in (values.get("srcset") or "").split(","):
            if entry.strip():
                self.loads.append(entry.split()[0])

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._loaded(tag, self._note(attrs))  # <x/>: nothing left open

    def _note(self, attrs: list[tuple[str, str | None]]) -> dict[str, str | None]:
        values = dict(attrs)
        if values.get("id"):
            self.ids.append(str(values["id"]))
        if values.get(MARKER_ATTRIBUTE):
            around = {("tag", t) for t, _ in self.open} | {("class", c) for _, cs in self.open for c in cs}
            self.markers.append((str(values[MARKER_ATTRIBUTE]), frozenset(around)))
        return values

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre" and self.depth:
            self.depth -= 1
            if not self.depth:
                self.blocks.append("".join(self.current))
                self.current = []
        elif tag in _HEADINGS and self.heading is not None:
            # The permalink's pilcrow (toc's permalink) is not part of the heading's text.
            self.headings.append((self.heading[0], "".join(self.heading[1]).strip().removesuffix("¶").strip()))
            self.heading = None
        elif tag == "p" and self.paragraph is not None:
            self.paragraphs.append("".join(self.paragraph))
            self.paragraph = None
        # Close up to the innermost open element of this name (as browsers treat elements left
        # open); a stray end tag closes nothing.
        for i in range(len(self.open) - 1, -1, -1):
            if self.open[i][0] == tag:
                del self.open[i:]
                return

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.current.append(data)
        for texts in (self.heading[1] if self.heading else None, self.paragraph):
            if texts is not None:
                texts.append(data)


@lru_cache(maxsize=256)
def parse_page(html_text: str) -> ParsedPage:
    """Parse one page (memoised by its text: both checks of a guard run read every page)."""
    parser = _PageParser()
    parser.feed(html_text)
    parser.close()
    return ParsedPage(
        tuple(parser.blocks),
        tuple(parser.markers),
        tuple(parser.ids),
        tuple(parser.headings),
        tuple(parser.paragraphs),
        tuple(parser.loads),
        tuple(parser.code_links),
    )


def code_blocks(site: Path) -> list[CodeBlock]:
    """Every ``<pre>`` block of every HTML page under ``site``, in page order."""
    blocks = []
    for page in sorted(Path(site).rglob("*.html")):
        parsed = parse_page(read_html(page))
        blocks += [CodeBlock(page, i, text) for i, text in enumerate(parsed.blocks, start=1)]
    return blocks
