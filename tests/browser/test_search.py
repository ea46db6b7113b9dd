"""Search finds a word that appears only inside an example's code, and following the result
lands on the page that shows it, with the word highlighted where the reader can see it.

The word is chosen deterministically: the alphabetically first word of six or more letters
that stands alone (between spaces or line ends) in a code section some page shows, appears
nowhere in any page's Markdown (so only the code can contribute it), and is in the search
index of exactly one page.

A second test does the same for a word found only in a tab that is not shown by default (one of
the inline-versus-durable tab sets): following the result must select that tab, so the
highlighted word is in view (``docs/javascripts/search-hit-tab.js``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Callable

from playwright.sync_api import Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import Visit
from tests.browser.pages import DOCS, ROOT, expected_examples, site_pages
from tests.browser.pages import Page as SitePage
from verified_docs.scenario.load import discover_project

_WORD = re.compile(r"(?:(?<=\s)|^)([a-z]{6,})(?=\s|$)", re.MULTILINE)


def search_index(site: Path) -> list[dict]:
    """The built site's search entries (``location``, ``title``, ``text`` each): Material's
    ``search/search_index.json`` or Zensical's ``search.json``."""
    material = site / "search" / "search_index.json"
    if material.is_file():
        return json.loads(material.read_text(encoding="utf-8"))["docs"]
    return json.loads((site / "search.json").read_text(encoding="utf-8"))["items"]


def word_only_in_code(site: Path) -> tuple[str, SitePage]:
    scenarios = {s.name: s for s in discover_project(ROOT)}
    prose = "\n".join(p.read_text(encoding="utf-8") for p in DOCS.rglob("*.md")).lower()
    index = search_index(site)
    candidates = []
    for site_page in site_pages():
        for example in expected_examples(site_page, scenarios):
            for tab in example.tabs:
                for word in _WORD.findall(tab.code.text if tab.code else ""):
                    if word in prose:
                        continue
                    pages = {
                        doc["location"].split("#")[0]
                        for doc in index
                        if word in (doc["title"] + " " + doc["text"]).lower()
                    }
                    if pages == {site_page.url}:
                        candidates.append((word, site_page))
    assert candidates, "no word of six letters or more appears only in the code of one page"
    return min(candidates, key=lambda c: c[0])


def word_only_in_a_hidden_tab(visit: Callable[[SitePage], Visit], site: Path) -> tuple[str, SitePage]:
    """The alphabetically first word of six or more letters that, on some page, appears only in
    a tab not shown by default (read in the page's one load, :data:`~tests.browser.reading.HIDDEN_TAB_WORDS`),
    and in the search index of that page only."""
    index = search_index(site)
    candidates = []
    for site_page in site_pages():
        for word in visit(site_page).hidden_tab_words:
            pages = {
                doc["location"].split("#")[0]
                for doc in index
                if re.search(rf"\b{word}\b", (doc["title"] + " " + doc["text"]).lower())
            }
            if pages == {site_page.url}:
                candidates.append((word, site_page))
    assert candidates, "no word appears only in a tab that is hidden by default (is there a non-language tab set?)"
    return min(candidates, key=lambda c: c[0])


def test_search_finds_a_word_only_in_a_hidden_tab_and_following_it_shows_that_tab(
    page: Page, built_site, site_url: str, visit: Callable[[SitePage], Visit]
) -> None:
    word, target = word_only_in_a_hidden_tab(visit, built_site.site)
    page.goto("")
    search = page.locator("input.md-search__input")
    search.click()
    search.press_sequentially(word)
    result_link(page, "a.md-search-result__link:has(mark)", word, site_url + target.url).evaluate("a => a.click()")
    page.wait_for_url(re.compile(re.escape(site_url + target.url) + r"(\?|#|$)"))
    visible_marks = """word => Array.from(document.querySelectorAll('.md-content mark[data-md-highlight]'))
        .filter(m => m.innerText.toLowerCase() === word && m.checkVisibility()).length"""
    try:
        # Material marks the words once the page's sequence diagrams are drawn: measured on the
        # suspension home page (three diagrams), 1 s on an idle machine, 5 s with the CPU
        # slowed eightfold, which a loaded 2-core machine reaches.
        page.wait_for_function(f"word => ({visible_marks})(word) > 0", arg=word, timeout=20_000)
    except PlaywrightTimeout:
        pass
    assert page.evaluate(visible_marks, word) > 0, (
        f"{target}: after following the result for {word!r}, the tab holding it is still hidden"
    )
    assert not page.log.errors, "\n".join(page.log.errors)


def test_search_finds_a_word_only_in_code_and_leads_to_its_page(page: Page, built_site, site_url: str) -> None:
    word, target = word_only_in_code(built_site.site)
    page.goto("")
    search = page.locator("input.md-search__input")
    search.click()
    search.press_sequentially(word)  # Material searches on key events, not on a bare value change
    result_link(page, "a.md-search-result__link:has(mark)", word, site_url + target.url).evaluate("a => a.click()")
    page.wait_for_url(re.compile(re.escape(site_url + target.url) + r"(\?|#|$)"))
    marks = highlighted_marks(page, word, ".md-content mark[data-md-highlight]", timeout_ms=5000)
    assert {"inCode": True, "visible": True} in marks, (
        f"{target}: after following the result for {word!r}, expected it highlighted and visible in a code "
        f"block, got {marks}"
    )


def result_link(page: Page, links: str, word: str, page_url: str, timeout_ms: float = 20_000) -> Locator:
    """The first search result among ``links`` (a CSS selector) that leads to ``page_url`` (an
    absolute URL) with ``word`` to highlight, once the dialog lists it.

    The list is waited on, not read once: while the word is typed, the search worker's answer
    to a shorter query can arrive after the last key and be shown with the whole word in its
    links (a CI run listed ten pages for 'acting' that hold only 'act...' words, none of them
    the one page holding 'acting'). The link is clicked through the DOM by the callers, as the
    list may be redrawn under a pointer click (Playwright then waits for a stable element).

    Raises AssertionError naming what was listed if no such result appears within ``timeout_ms``.
    """
    link = page.locator(f'{links}[href^="{page_url}?h={word}"]').first
    try:
        link.wait_for(timeout=timeout_ms)
    except PlaywrightTimeout:
        listed = page.locator(links).evaluate_all("links => links.map(a => a.href)")
        raise AssertionError(
            f"searching {word!r}: no result on {page_url} within {timeout_ms / 1000:g} s; listed {listed}"
        ) from None
    return link


def highlighted_marks(page: Page, word: str, selector: str, timeout_ms: float) -> list[dict]:
    """The page's highlight marks (``selector``) whose text is ``word``, each as ``{inCode,
    visible}``, once at least one is there or ``timeout_ms`` passed (the theme highlights after
    the new page is in place; an empty list is for the caller's assertion to report)."""
    read_marks = f"""word => Array.from(document.querySelectorAll({json.dumps(selector)}))
        .filter(m => m.innerText.toLowerCase() === word)
        .map(m => ({{inCode: !!m.closest('pre > code'), visible: m.checkVisibility()}}))"""
    try:
        page.wait_for_function(f"word => ({read_marks})(word).length > 0", arg=word, timeout=timeout_ms)
    except PlaywrightTimeout:
        pass
    return page.evaluate(read_marks, word)
