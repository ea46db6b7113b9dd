"""The page rules the guard checks in the built HTML, without a browser.

Each is the part of a browser test (``tests/browser/``) that the HTML alone decides, so that
``nox -s docs`` fails first, at the page and line:

- no paragraph holds a list left as raw Markdown (``test_no_list_is_left_as_raw_markdown``);
- every heading's id is on its page once, so its anchor leads to it
  (``test_every_heading_anchor_resolves``);
- the page's markup loads nothing from another host (``test_no_page_asks_another_host_for_anything``,
  which also catches what scripts fetch).

The code width is checked earlier, by the render stage (:mod:`verified_docs.render.code_width`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from verified_docs.errors import Location, Problem
from verified_docs.site.built_html import ParsedPage, parse_page, read_html
from verified_docs.site.guard import built_page

RULES = "CONTRIBUTING.md, Rules a page must meet"
# A line inside a paragraph that starts like a list item: the browser test's pattern.
_RAW_ITEM = re.compile(r"\n\s*((?:[-*+]|\d+\.) [^\n]*)")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.) ")
_WORD = re.compile(r"[A-Za-z0-9]+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def _line_of(md: Path, lines: list[str], shown: str, is_candidate: Callable[[str], bool]) -> Location:
    """The first line of ``md`` that ``is_candidate`` accepts and whose words begin with the
    first words of ``shown`` (its text in the HTML, markup gone), else the page."""
    wanted = _words(shown)[:4]
    for number, line in enumerate(lines, start=1):
        if is_candidate(line) and wanted and _words(line)[: len(wanted)] == wanted:
            return Location(md, number)
    return Location(md)


def raw_lists(md: Path, lines: list[str], parsed: ParsedPage, built: str) -> list[Problem]:
    """A problem for each paragraph of the content holding a line that starts like a list item:
    Python-Markdown starts a list only after a blank line, so a list glued to the paragraph
    above shows its markers as text."""
    problems = []
    for paragraph in parsed.paragraphs:
        m = _RAW_ITEM.search(paragraph)
        if m is None:
            continue
        item = m.group(1).strip()
        problems.append(
            Problem(
                _line_of(md, lines, item, lambda line: _ITEM.match(line) is not None),
                f"a list is left as raw Markdown in {built}: its items show their markers as text",
                (
                    f"| {item[:120]}",
                    f"rule: a list starts after a blank line ({RULES})",
                    "fix: leave a blank line between the paragraph and the list",
                ),
            )
        )
    return problems


def repeated_heading_ids(md: Path, lines: list[str], parsed: ParsedPage, built: str) -> list[Problem]:
    """A problem for each heading whose id other elements of the page carry too: its anchor
    link would lead to whichever comes first."""
    counts = Counter(parsed.ids)
    problems = []
    for heading_id, text in parsed.headings:
        if heading_id and counts[heading_id] > 1:
            problems.append(
                Problem(
                    _line_of(md, lines, text, lambda line: line.lstrip().startswith("#")),
                    f"heading {text!r} has the id {heading_id!r}, which {counts[heading_id]} elements of {built} "
                    "carry: its anchor may lead elsewhere",
                    (
                        f"rule: every heading's id is on its page once ({RULES})",
                        "fix: rename the heading, or give it an id of its own with `{#another-id}` after its text",
                    ),
                )
            )
    return problems


def other_hosts(md: Path, lines: list[str], parsed: ParsedPage, built: str) -> list[Problem]:
    """A problem for each address the page loads from another host (an image, a script, a
    frame, a stylesheet): the site works offline and asks no other host for anything."""
    problems = []
    for url in dict.fromkeys(parsed.loads):
        if not urlsplit(url).netloc:
            continue
        line = next((n for n, text in enumerate(lines, start=1) if url in text), 0)
        problems.append(
            Problem(
                Location(md, line),
                f"{built} loads {url} from another host",
                (
                    f"rule: a page loads nothing from another host ({RULES})",
                    "fix: put the file under docs/ and refer to it by a relative path",
                ),
            )
        )
    return problems


def page_rule_problems(site: Path, docs: Path) -> list[Problem]:
    """Every page of ``docs`` that breaks a rule above in the site built at ``site``, at the
    Markdown page and line where found there, else at the page. Pages not built are left to
    :func:`~verified_docs.site.guard.directive_problems` and the strict build."""
    problems: list[Problem] = []
    for md in sorted(Path(docs).rglob("*.md")):
        page = built_page(Path(site), Path(docs), md)
        if page is None:
            continue
        parsed = parse_page(read_html(page))
        lines = md.read_text(encoding="utf-8").splitlines()
        built = page.relative_to(site).as_posix()
        for check in (raw_lists, repeated_heading_ids, other_hosts):
            problems += check(md, lines, parsed, built)
    return problems
