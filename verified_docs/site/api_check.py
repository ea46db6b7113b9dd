"""The guard's check of the API reference: each entry of a built page shows what griffe reads
from the installed toolnexus now, and every link from code to an entry leads to one.

For every ``verified-api-reference`` directive of ``docs/``, the entries are read again from
the package (:func:`verified_docs.render.api_reference.entries`) and compared with the built
HTML, whichever generator made it: the entry's id on the element naming it (``data-vd-api``),
its signature (the code in ``data-vd-api-signature``), its source place (``data-vd-api-source``
holds ``file:line`` and the line range) and each parameter or field (its code, and its id).
A page showing an entry that no directive asks for fails too (a stale page).
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from verified_docs.errors import Location, Problem, SourceError
from verified_docs.render.api_reference import entries
from verified_docs.render.directive import find_directives
from verified_docs.site.built_html import parse_page, read_html
from verified_docs.site.code_links import LINK_CLASS
from verified_docs.site.guard import built_page

_WATCHED = ("data-vd-api", "data-vd-api-signature", "data-vd-api-source")
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Element:
    """An element of a built page carrying one of the ``data-vd-api*`` attributes: which
    (``attribute``) with its ``value``, its ``id``, its whole ``text`` and the text of the code
    elements inside it (``code``)."""

    attribute: str
    value: str
    id: str
    text: list[str] = field(default_factory=list)
    code: list[str] = field(default_factory=list)


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[tuple[str, Element | None]] = []
        self.found: list[Element] = []
        self.in_code = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in _VOID:
            return
        element = None
        for attribute in _WATCHED:
            if values.get(attribute):
                element = Element(attribute, str(values[attribute]), values.get("id") or "")
                self.found.append(element)
        self.open.append((tag, element))
        self.in_code += tag == "code"

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.open) - 1, -1, -1):
            if self.open[i][0] == tag:
                self.in_code -= sum(t == "code" for t, _ in self.open[i:])
                del self.open[i:]
                return

    def handle_data(self, data: str) -> None:
        for _, element in self.open:
            if element is not None:
                element.text.append(data)
                if self.in_code:
                    element.code.append(data)


@lru_cache(maxsize=128)
def read_elements(html_text: str) -> tuple[Element, ...]:
    """The ``data-vd-api*`` elements of a page, in order (its code links are the guard's
    :func:`~verified_docs.site.built_html.parse_page`'s, one parse for every check). Memoised by the page's text: the author loop guards the whole site on every save, and
    an unchanged page then costs no parse."""
    parser = _Elements()
    parser.feed(html_text)
    parser.close()
    return tuple(parser.found)


def _page_problems(where: Location, built: str, html_text: str, expected: list) -> list[Problem]:
    """What the built page (``built``, its path in the site) shows wrong of the ``expected``
    entries, at the directive ``where`` asked for them."""
    found = read_elements(html_text)
    by_key = {(e.attribute, e.value): e for e in found}
    problems = []

    def check(attribute: str, key: str, what: str, want_id: str | None, want_code: str | None) -> None:
        element = by_key.pop((attribute, key), None)
        if element is None:
            problems.append(Problem(where, f"{built}: the API reference shows no {what} of {key}"))
            return
        if want_id is not None and element.id != want_id:
            problems.append(Problem(where, f"{built}: {what} of {key} has id {element.id!r}, expected {want_id!r}"))
        got = "".join(element.code).strip()
        if want_code is not None and got != want_code:
            problems.append(
                Problem(
                    where,
                    f"{built}: the {what} of {key} is not what griffe reads from the installed toolnexus",
                    (f"shown: {got}", f"read:  {want_code}"),
                )
            )

    for entry in expected:
        check("data-vd-api", entry.qualified, "entry", entry.anchor, None)
        check("data-vd-api-signature", entry.qualified, "signature", None, entry.signature)
        source = by_key.get(("data-vd-api-source", entry.qualified))
        place = f"{entry.file}:{entry.line}"
        check("data-vd-api-source", entry.qualified, "source place", None, None)
        if source is not None and (
            place not in "".join(source.code) or f"{entry.line} to {entry.end}" not in "".join(source.text)
        ):
            problems.append(
                Problem(
                    where,
                    f"{built}: the source place of {entry.qualified} is not {place}, lines {entry.line} to {entry.end}",
                )
            )
        for m in entry.members:
            check("data-vd-api", m.key, "parameter or field", m.anchor, m.text)
    for attribute, key in by_key:
        problems.append(
            Problem(where, f"{built}: {attribute}={key!r} is asked for by no verified-api-reference directive")
        )
    return problems


def api_reference_problems(site: Path, docs: Path, search_path: Path) -> list[Problem]:
    """For each page of ``docs`` with ``verified-api-reference`` directives: what its built page
    under ``site`` shows that is not what griffe reads now from the toolnexus under
    ``search_path`` (a site-packages folder), at the first directive's line (see the module
    docstring)."""
    problems: list[Problem] = []
    for md in sorted(Path(docs).rglob("*.md")):
        try:
            directives = [
                d for d in find_directives(md.read_text(encoding="utf-8-sig"), md) if d.kind == "api-reference"
            ]
            if not directives:
                continue
            expected = [e for d in directives for e in entries(d, d.names, search_path)]
        except SourceError as e:
            problems += e.problems  # the render stage reported these already; the guard may run alone
            continue
        page = built_page(Path(site), Path(docs), md)
        if page is None:
            continue  # directive_problems reports a page that was not built
        built = page.relative_to(site).as_posix()
        problems += _page_problems(directives[0].where, built, read_html(page), expected)
    return problems


def code_link_problems(site: Path) -> list[Problem]:
    """Every code link (``a.vd-api-link``) of the site that does not lead to an id on a built page."""
    site = Path(site)
    problems = []
    ids: dict[Path, frozenset[str]] = {}  # target page -> its ids: hundreds of links lead to a few pages

    def ids_of(target: Path) -> frozenset[str]:
        if target not in ids:
            ids[target] = frozenset(parse_page(read_html(target)).ids) if target.is_file() else frozenset()
        return ids[target]

    for page in sorted(site.rglob("*.html")):
        text = read_html(page)
        if LINK_CLASS not in text:
            continue
        for href in sorted(set(parse_page(text).code_links)):
            parts = urlsplit(href)
            rel = posixpath.normpath(posixpath.join(page.parent.relative_to(site).as_posix(), unquote(parts.path)))
            target = site / rel
            target = target / "index.html" if parts.path.endswith("/") or target.is_dir() else target
            if not parts.path:
                target = page
            if not target.is_file() or parts.fragment not in ids_of(target):
                problems.append(Problem(Location(page), f"a code link leads nowhere: {href}"))
    return problems
