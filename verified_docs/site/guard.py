"""The guard: every code block in the built site must be something that ran in this build,
and every directive of ``docs/`` must have come out as the block it stands for.

A block passes when its text is a section or golden output that the ledger records as passed,
or a Python fence of ``docs/`` that pytest-markdown-docs executed and passed in this session.
Anything else (a hand-written block, a fence nested in a tab or admonition that
pytest-markdown-docs skipped, an unclosed section that pulled in the rest of a file) fails.

Directives are counted from the Markdown sources and from the markers their rendered blocks
carry in the HTML (:func:`verified_docs.render.directive.marker`), so a directive that vanished (left
an invisible comment by a generator fed docs/ as written, swallowed by an unclosed fence or raw
HTML) fails at its page and line whichever generator built the site.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from markdown_it import MarkdownIt

from verified_docs.errors import Location, Problem, SourceError
from verified_docs.files import write_atomic
from verified_docs.ledger import fingerprint
from verified_docs.render.directive import MARKER_ATTRIBUTE, Directive, find_directives, marker_value
from verified_docs.render.tabs import SOURCE_DIR
from verified_docs.run.languages import LANGUAGES
from verified_docs.site.built_html import CodeBlock, code_blocks, parse_page, read_html

PYTHON_FENCES = ("py", "python", "python3")


_TAB_LABELS = re.compile(r'<div class="tabbed-labels">(.*?)</div>', re.S)
_LABEL = re.compile(r"<label[^>]*>(.*?)</label>", re.S)


@dataclass(frozen=True)
class Fence:
    """A Python fence in a Markdown source. ``line`` is pytest-markdown-docs' ``start_line``
    (markdown-it's 0-based opening line + 1, i.e. the 1-based line of the opening fence)."""

    path: Path
    line: int
    text: str


def python_fences(docs: Path) -> list[Fence]:
    """Top-level Python fences under ``docs``, parsed the way pytest-markdown-docs parses them
    (CommonMark; an indented fence inside a tab or admonition is not a fence to it)."""
    return [f for path in sorted(Path(docs).rglob("*.md")) for f in page_fences(path)]


def page_fences(path: Path) -> list[Fence]:
    """The top-level Python fences of one Markdown page (see :func:`python_fences`)."""
    return list(_fences_in(Path(path).resolve(), Path(path).read_text(encoding="utf-8")))


@lru_cache(maxsize=128)
def _fences_in(path: Path, text: str) -> tuple[Fence, ...]:
    """:func:`page_fences` of the page at ``path`` holding ``text``, memoised: the author loop
    guards the whole site on every save, and an unchanged page then costs no parse."""
    found = []
    for token in _commonmark().parse(text):
        info = token.info.split()
        if token.type == "fence" and token.map and info and info[0] in PYTHON_FENCES:
            found.append(Fence(path, token.map[0] + 1, token.content))
    return tuple(found)


@lru_cache(maxsize=1)
def _commonmark() -> MarkdownIt:
    return MarkdownIt("commonmark")


def save_executed(path: Path, executed: set[tuple[str, int]]) -> None:
    """Write the executed fences, ``[[absolute md path, line], ...]``, atomically."""
    write_atomic(Path(path), json.dumps(sorted([list(x) for x in executed])) + "\n")


def load_executed(path: Path) -> set[tuple[str, int]]:
    """Read what :func:`save_executed` wrote; a missing file means nothing ran."""
    path = Path(path)
    if not path.is_file():
        return set()
    return {(p, int(line)) for p, line in json.loads(path.read_text(encoding="utf-8"))}


def source_page(site: Path, docs: Path, page: Path) -> Path | None:
    """The Markdown page under ``docs`` that MkDocs built into ``page`` (``x/index.html`` from
    ``x.md`` or ``x/index.md``), or None."""
    rel = page.relative_to(site)
    stem = rel.parent if rel.name == "index.html" else rel.with_suffix("")
    for candidate in (docs / f"{stem}.md", docs / stem / "index.md"):
        if str(stem) != "." and candidate.is_file():
            return candidate
    index = docs / "index.md"
    return index if str(stem) == "." and index.is_file() else None


def _where(site: Path, docs: Path, block: CodeBlock) -> Location:
    """Best place to point at: the Markdown line holding the block's first line, else the page."""
    md = source_page(site, docs, block.page)
    if md is None:
        return Location(block.page)
    first = next((line.strip() for line in block.text.splitlines() if line.strip()), "")
    for number, line in enumerate(md.read_text(encoding="utf-8").splitlines(), start=1):
        if first and line.strip() == first:
            return Location(md, number)
    return Location(md)


@lru_cache(maxsize=256)
def _tab_labels(html_text: str) -> tuple[str, ...]:
    """The label HTML of each tab set of a page, memoised by its text (guarded on every save)."""
    return tuple(_TAB_LABELS.findall(html_text))


def _tab_sets(site: Path) -> list[tuple[Path, int, list[str]]]:
    """(page, 1-based set number in document order, labels) for every tab set of the site."""
    out = []
    for page in sorted(Path(site).rglob("*.html")):
        for i, labels_html in enumerate(_tab_labels(read_html(page)), start=1):
            out.append(
                (page, i, [html.unescape(re.sub(r"<[^>]+>", "", x)).strip() for x in _LABEL.findall(labels_html)])
            )
    return out


def linked_label_problems(site: Path, language_labels: frozenset[str]) -> list[Problem]:
    """Tab sets Material would switch together by mistake. It links every tab set by label
    text (``content.tabs.link``), so only language tabs may share labels: a set that is not
    about languages (inline versus durable, say) needs labels no other set uses, and a set may
    not mix language and other labels (half of it would follow the reader's language)."""
    problems: list[Problem] = []
    first_use: dict[str, str] = {}  # label -> the tab set that used it first
    for page, i, labels in _tab_sets(site):
        where = f"{page.relative_to(site).as_posix()} tab set #{i}"
        languages = [x for x in labels if x in language_labels]
        if languages and len(languages) != len(labels):
            problems.append(
                Problem(Location(page), f"{where} mixes language tabs with {sorted(set(labels) - set(languages))}")
            )
            continue
        if languages:
            continue
        for label in dict.fromkeys(labels):
            if label in first_use:
                problems.append(
                    Problem(
                        Location(page),
                        f"{where} reuses the label {label!r} of {first_use[label]}; "
                        "Material would switch both sets together",
                    )
                )
            else:
                first_use[label] = where
    return problems


def duplicate_tab_labels(site: Path) -> list[Problem]:
    """Tab sets in which two tabs share a label: the second can never be chosen by a reader
    (two examples merged into one set). One problem per such set."""
    out = []
    for page, i, labels in _tab_sets(site):
        repeated = sorted({x for x in labels if labels.count(x) > 1})
        if repeated:
            out.append(
                Problem(
                    Location(page),
                    f"tab set #{i} has several tabs labelled {', '.join(repeated)}; "
                    "only the first can be seen (two examples merged?)",
                )
            )
    return out


def allowed_blocks(docs: Path, verified: set[str], executed: set[tuple[str, int]]) -> tuple[set[str], dict[str, Fence]]:
    """The fingerprints a code block of the site may have (``verified``, the ledger's, and those
    of the fences of ``docs`` that ran), and the fences that did not run, by fingerprint. The
    HTML and the Markdown twins (:mod:`verified_docs.site.twin_guard`) are checked against them."""
    fences = python_fences(Path(docs))
    allowed = set(verified)
    allowed.update(fingerprint(f.text) for f in fences if (str(f.path), f.line) in executed)
    return allowed, {fingerprint(f.text): f for f in fences if (str(f.path), f.line) not in executed}


def check_site(site: Path, docs: Path, verified: set[str], executed: set[tuple[str, int]]) -> tuple[list[Problem], int]:
    """Problems for every unverified code block and every tab set with a repeated label, and
    the number of code blocks checked.

    ``verified`` holds fingerprints from the ledger; ``executed`` holds (absolute path, line)
    of the fences that ran and passed. Problems point at the Markdown source line when found.
    """
    site, docs = Path(site), Path(docs)
    allowed, unexecuted = allowed_blocks(docs, verified, executed)
    problems = []
    blocks = code_blocks(site)
    for block in blocks:
        fp = fingerprint(block.text)
        if fp in allowed:
            continue
        first = block.text.strip("\n").splitlines()[:3]
        if fp in unexecuted:
            f = unexecuted[fp]
            where = Location(f.path, f.line)
            why = "Python fence was not executed in this run (deselected, failed, or marked notest)"
        else:
            where = _where(site, docs, block)
            why = (
                "not a verified snippet section or output, nor a fence pytest-markdown-docs executed "
                "(a hand-written block, a fence nested in a tab or admonition, or an unclosed section?)"
            )
        built = block.page.relative_to(site).as_posix()
        problems.append(
            Problem(where, f"code block #{block.index} of {built}: {why}", tuple(f"| {line}" for line in first))
        )
    language_labels = frozenset(language.display for language in LANGUAGES.values())
    return problems + duplicate_tab_labels(site) + linked_label_problems(site, language_labels), len(blocks)


def unrendered_claims(site: Path, docs: Path) -> list[Problem]:
    """A problem for every claim comment left in a built page: the renderer took it for code (or
    never ran), so the sentence shows no link and its evidence was never checked. At the
    Markdown line that holds it when found there, else at the built page."""
    problems = []
    for page in sorted(Path(docs).rglob("*.md")):
        built = built_page(Path(site), Path(docs), page)
        if built is None:
            continue
        left = re.findall(r"<!--\s*claim\b.*?-->", read_html(built), re.S)
        source = page.read_text(encoding="utf-8").splitlines()
        for comment in left:
            line = next((n for n, text in enumerate(source, start=1) if comment in text), None)
            problems.append(
                Problem(
                    Location(page, line) if line else Location(built),
                    f"a claim came out of {built.relative_to(site).as_posix()} unrendered: no link, "
                    "and its evidence was not checked (inside a code span the renderer saw?)",
                    (comment[:200],),
                )
            )
    return problems


def published_source_problems(site: Path, passed_sha256: dict[str, str]) -> list[Problem]:
    """Every file under the site's ``verified-src/`` (the "whole program" downloads) must be a
    program or support file that passed, byte for byte: ``passed_sha256`` maps its path
    relative to the project root to the SHA-256 the ledger recorded."""
    folder = Path(site) / SOURCE_DIR
    problems = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder).as_posix()
        if passed_sha256.get(rel) != hashlib.sha256(path.read_bytes()).hexdigest():
            why = (
                "was not verified green in this build" if rel not in passed_sha256 else "differs from the verified file"
            )
            problems.append(Problem(Location(path), f"published program {rel} {why}"))
    return problems


# What each kind of directive comes out as, told by an element around its marker: an example's
# wrapper (div.vd-example, around its tabs or its one code block), a collapsed admonition
# (details), a table. Outside it, the marker came out but the block did
# not (it was swallowed into raw HTML, say). A kind not listed needs only its marker.
CONTAINERS = {
    "example": ("class", "vd-example"),
    "evidence": ("tag", "details"),
    "contract": ("tag", "table"),
    "matrix": ("tag", "table"),
    "sources": ("tag", "p"),
    "install": ("tag", "p"),
    "diagram": ("class", "verified-diagram"),
    "api-reference": ("tag", "p"),
}


def built_page(site: Path, docs: Path, md: Path) -> Path | None:
    """The HTML page MkDocs built from ``md`` (with or without directory URLs), or None."""
    rel = md.relative_to(docs)
    stem = rel.parent if rel.stem in ("index", "README") else rel.with_suffix("")
    for candidate in (site / stem / "index.html", site / rel.with_suffix(".html")):
        if candidate.is_file():
            return candidate
    return None


def _came_out(d: Directive, found: dict[str, frozenset[tuple[str, str]]]) -> bool:
    around = found.get(marker_value(d))
    container = CONTAINERS.get(d.kind)
    return around is not None and (container is None or container in around)


def _kind_name(d: Directive) -> str:
    return f"verified-{d.kind}"


def directive_problems(site: Path, docs: Path) -> list[Problem]:
    """For each page of ``docs``: the first directive that did not come out as its block in the
    built HTML (no marker, or a marker outside its kind's container), at its page and line,
    saying how many of the page's directives did; malformed directives and unclosed fences at
    theirs; and markers that match no directive of their page. Pages without directives and
    without markers pass."""
    site, docs = Path(site), Path(docs)
    problems: list[Problem] = []
    for md in sorted(docs.rglob("*.md")):
        try:
            directives = find_directives(md.read_text(encoding="utf-8-sig"), md)
        except SourceError as e:
            problems += e.problems
            continue
        page = built_page(site, docs, md)
        if page is None:
            if directives:
                problems.append(
                    Problem(
                        directives[0].where,
                        f"{_kind_name(directives[0])} did not come out: the page was not built into {site}",
                    )
                )
            continue
        found: dict[str, frozenset[tuple[str, str]]] = {}
        for value, around in parse_page(read_html(page)).markers:
            found[value] = found.get(value, frozenset()) | around  # a tab set carries one per tab
        built = page.relative_to(site).as_posix()
        wanted = {marker_value(d): d for d in directives}
        came_out = [d for d in directives if _came_out(d, found)]
        missing = [d for d in directives if d not in came_out]
        if missing:
            d = missing[0]
            value = marker_value(d)
            if not found:
                why = (
                    f"none of the page's {len(directives)} directive(s) did (no {MARKER_ATTRIBUTE} marker at all: "
                    "was the page built from docs/ as written, without the render stage?)"
                )
            elif value in found:
                what, name = CONTAINERS[d.kind]  # only a kind with a container can be misplaced
                why = (
                    f"its marker is not inside a {'<' + name + '>' if what == 'tag' else name + ' element'}, "
                    f"so the block did not; {len(came_out)} of the page's {len(directives)} directive(s) did"
                )
            else:
                why = (
                    f"{len(came_out)} of the page's {len(directives)} directive(s) did; this is the first that did not"
                )
            problems.append(Problem(d.where, f"{_kind_name(d)} did not come out in {built}: {why}"))
        for value in found:
            if value not in wanted:
                problems.append(
                    Problem(
                        Location(page),
                        f'marker {MARKER_ATTRIBUTE}="{value}" matches '
                        f"no directive of {md} (a stale page, or lines miscounted?)",
                    )
                )
    return problems
