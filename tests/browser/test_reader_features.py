"""What a reader expects of the site's chrome: a light/dark toggle that is remembered,
instant navigation (a link swaps the page in without reloading the document), and an edit link
on every page to its Markdown source."""

from __future__ import annotations

import re
from typing import Callable

from playwright.sync_api import Page

from conftest import TEST_EDIT_URI
from tests.browser.conftest import Visit
from tests.browser.dom import wait_for_js
from tests.browser.pages import DOCS, site_pages
from tests.browser.pages import Page as SitePage

SCHEME = "() => document.body.getAttribute('data-md-color-scheme')"
# Material shows one toggle label at a time: the one that switches to the other palette.
TOGGLE = 'form[data-md-component="palette"] label:visible'


def test_palette_toggle_switches_light_and_dark_and_is_remembered(page: Page) -> None:
    page.goto("")
    assert page.evaluate(SCHEME) == "default", "a reader whose system is light gets the light palette"
    page.locator(TOGGLE).click()
    assert wait_for_js(page, SCHEME, "slate") == "slate", "the toggle switches to the dark palette"
    page.reload()
    assert page.evaluate(SCHEME) == "slate", "the choice survives a reload"
    page.locator(TOGGLE).click()
    assert wait_for_js(page, SCHEME, "default") == "default", "and the toggle switches back"
    assert not page.log.errors, "\n".join(page.log.errors)


def test_links_navigate_without_reloading_the_document(page: Page, built_site, site_url: str) -> None:
    """Material intercepts a click only on a link its ``sitemap.xml`` lists, matching the
    sitemap's URLs (made from ``site_url``) by path. The test serves the site at another origin
    and path, so it rebases the sitemap's URLs onto the test server, as if deployed there."""
    locs = re.findall(r"<loc>([^<]+)</loc>", (built_site.site / "sitemap.xml").read_text(encoding="utf-8"))
    assert locs, (
        "sitemap.xml lists no pages (mkdocs.yml sets no site_url), so Material's instant navigation "
        "intercepts no link and every click reloads the whole document"
    )
    base = min(locs, key=len)  # the home page: every other URL starts with it
    rebased = "".join(f"<url><loc>{site_url}{loc[len(base) :]}</loc></url>" for loc in locs)
    page.route(
        f"{site_url}sitemap.xml",
        lambda route: route.fulfill(
            content_type="application/xml",
            body=f'<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            f"{rebased}</urlset>",
        ),
    )
    page.goto("", wait_until="networkidle")
    page.evaluate("() => { window.__same_document = true }")
    # A Markdown twin (…/index.html.md) is a file, not a page: following it loads it, as it should.
    index = page.evaluate(
        "() => Array.from(document.querySelectorAll('.md-content a[href]'))"
        ".findIndex(a => a.origin === location.origin && a.pathname !== location.pathname"
        " && !a.pathname.endsWith('.md'))"
    )
    assert index >= 0, "the home page's content links to no other page"
    link = page.locator(".md-content a[href]").nth(index)
    href = link.evaluate("a => a.href")
    link.click()
    page.wait_for_url(href)
    assert page.evaluate("() => window.__same_document === true"), "following a link reloaded the whole document"
    assert not page.log.errors, "\n".join(page.log.errors)


def test_every_page_has_an_edit_link_to_its_own_markdown_file(visit: Callable[[SitePage], Visit]) -> None:
    problems = []
    for site_page in site_pages():
        hrefs = list(visit(site_page).edit_links)
        expected = TEST_EDIT_URI + site_page.source.relative_to(DOCS).as_posix()
        if expected not in hrefs:
            problems.append(f"{site_page}: no edit link to {expected} (found {hrefs})")
    assert not problems, "\n".join(problems)


def test_a_program_is_folded_around_its_section_and_unfolds(page: Page) -> None:
    """On "Answer later", park.py's first block is about its `tool` section: its imports are
    folded away, the toggle shows them (and says so to assistive technology), and folds back."""
    page.goto("suspension/answer-later/")
    block = page.locator(".vd-program").first
    imports = block.locator("code > span", has_text="import dataclasses")
    assert imports.count() == 1 and not imports.is_visible(), "the imports are folded away"
    toggle = block.locator("button.vd-fold-toggle")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert re.fullmatch(r"Show all \d+ lines of park\.py \(\d+ folded\)", toggle.inner_text())
    toggle.click()
    assert imports.is_visible() and toggle.get_attribute("aria-expanded") == "true"
    toggle.click()
    assert not imports.is_visible()
    assert not page.log.errors, "\n".join(page.log.errors)


def test_a_search_hit_in_a_folded_line_unfolds_its_program(page: Page) -> None:
    page.goto("suspension/answer-later/?h=dataclasses")
    block = page.locator(".vd-program").first
    assert block.locator("code > span", has_text="import dataclasses").is_visible()
    assert block.locator("button.vd-fold-toggle").get_attribute("aria-expanded") == "true"
