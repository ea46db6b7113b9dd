"""Smoke test of the site built with Zensical (``nox -s docs -- --generator zensical``): tabs
switch, copy buttons copy the whole program and its output, search finds a word that only an
example's code holds and leads to it, and the sequence diagrams are drawn, with no request to
another host. The MkDocs build has the full browser suite; the README says what differs.

Zensical's search dialog lives in a shadow root (opened here as for Mermaid's diagrams) and its
results are ``a[role=option]`` links, unlike Material's ``a.md-search-result__link``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.browser.copying import copy_page, run_copies
from tests.browser.dom import tab_label, tab_sets
from tests.browser.pages import ROOT, site_pages
from tests.browser.reading import OPEN_SHADOWS
from tests.browser.test_diagrams import DIAGRAM_PAGES, diagram_problems
from tests.browser.test_search import highlighted_marks, result_link, word_only_in_code
from verified_docs import ledger as ledger_mod
from verified_docs.scenario.load import discover_project

PAGES = {p.url: p for p in site_pages()}
SCENARIOS = {s.name: s for s in discover_project(ROOT)}


def test_tabs_switch(zensical_page: Page) -> None:
    page = zensical_page
    page.goto(PAGES["suspension/"].url)
    sets = tab_sets(page)
    assert len(sets) >= 2 and all(s.checked == s.labels[0] for s in sets), sets
    for s in sets:
        blocks = page.locator(".tabbed-set").nth(s.index).locator(":scope > .tabbed-content > .tabbed-block")
        tab_label(page, s.index, s.labels[1]).click()
        assert [blocks.nth(i).is_visible() for i in range(blocks.count())] == [False, True], s.labels
    assert [s.checked for s in tab_sets(page)] == [s.labels[1] for s in sets]
    assert not page.log.errors and not page.log.blocked, page.log


def test_copy_buttons_copy_programs_that_run_and_print_what_the_page_shows(zensical_page: Page, tmp_path: Path) -> None:
    zensical_page.goto(PAGES["suspension/answer-later/"].url)
    problems, copies = copy_page(zensical_page, PAGES["suspension/answer-later/"])
    assert copies, "nothing was copied"
    for name, copied in copies.items():
        problems += run_copies(SCENARIOS[name], copied, tmp_path / name.replace("/", "-"))
    assert problems == [], "\n".join(problems)
    assert not zensical_page.log.errors, zensical_page.log.errors


def test_search_finds_a_word_only_in_code_and_leads_to_it(
    zensical_page: Page, zensical_site, zensical_url: str
) -> None:
    page = zensical_page
    word, target = word_only_in_code(zensical_site.site)
    page.add_init_script(OPEN_SHADOWS)
    page.goto("")
    page.locator(".md-search__button").click()
    page.keyboard.type(word)
    result_link(page, "a[role=option]", word, zensical_url + target.url).evaluate("a => a.click()")
    page.wait_for_url(re.compile(re.escape(zensical_url + target.url) + r"(\?|#|$)"))
    marks = highlighted_marks(page, word, ".md-content mark", timeout_ms=20_000)
    assert {"inCode": True, "visible": True} in marks, (
        f"{target}: after following the result for {word!r}, expected it highlighted and visible in a code "
        f"block, got {marks}"
    )
    assert not page.log.errors and not page.log.blocked, page.log


@pytest.mark.parametrize("url", ["suspension/", "suspension/answer-later/", "durable-host/"])
def test_diagrams_are_drawn_from_the_site_itself(zensical_page: Page, verification, url: str) -> None:
    site_page = PAGES[url]
    assert site_page in DIAGRAM_PAGES
    problems = diagram_problems(zensical_page, site_page, ledger_mod.load(verification.ledger_path))
    assert problems == [], "\n".join(problems)
    assert zensical_page.log.blocked == [], f"requests to other hosts: {zensical_page.log.blocked}"
