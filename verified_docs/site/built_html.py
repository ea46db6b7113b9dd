"""Read a built HTML page as the guard sees it: the text of each ``<pre>`` block, in order, and
each directive marker (:data:`~verified_docs.render.directive.MARKER_ATTRIBUTE`) with the tags and
classes of the elements open around it. The standard library's HTML parser; no browser.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path

from verified_docs.render.directive import MARKER_ATTRIBUTE


@dataclass(frozen=True)
class CodeBlock:
    """The text of one ``<pre>`` in a built page; ``index`` is 1-based within the page."""

    page: Path
    index: int
    text: str


# Elements that never have an end tag, so never stay open around a marker.
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass(frozen=True)
class ParsedPage:
    """What the guard reads from one HTML page: the text of each ``<pre>``, in order, and each
    directive marker's value with the tags and classes of the elements around it."""

    blocks: tuple[str, ...]
    markers: tuple[tuple[str, frozenset[tuple[str, str]]], ...]


class _PageParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.current: list[str] = []
        self.blocks: list[str] = []
        self.open: list[tuple[str, frozenset[str]]] = []
        self.markers: list[tuple[str, frozenset[tuple[str, str]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = self._note(attrs)
        if tag == "pre":
            self.depth += 1
        if tag not in _VOID:
            self.open.append((tag, frozenset((values.get("class") or "").split())))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._note(attrs)  # <x/>: nothing left open

    def _note(self, attrs: list[tuple[str, str | None]]) -> dict[str, str | None]:
        values = dict(attrs)
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
        # Close up to the innermost open element of this name (as browsers treat elements left
        # open); a stray end tag closes nothing.
        for i in range(len(self.open) - 1, -1, -1):
            if self.open[i][0] == tag:
                del self.open[i:]
                return

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.current.append(data)


@lru_cache(maxsize=256)
def parse_page(html_text: str) -> ParsedPage:
    """Parse one page (memoised by its text: both checks of a guard run read every page)."""
    parser = _PageParser()
    parser.feed(html_text)
    parser.close()
    return ParsedPage(tuple(parser.blocks), tuple(parser.markers))


def code_blocks(site: Path) -> list[CodeBlock]:
    """Every ``<pre>`` block of every HTML page under ``site``, in page order."""
    blocks = []
    for page in sorted(Path(site).rglob("*.html")):
        parsed = parse_page(page.read_text(encoding="utf-8"))
        blocks += [CodeBlock(page, i, text) for i, text in enumerate(parsed.blocks, start=1)]
    return blocks
