"""The "Copy page as Markdown" button and the "View as Markdown" link (docs/javascripts/copy-page.js),
under MkDocs and under Zensical: the button, by mouse and by keyboard, puts the page's Markdown
twin on the clipboard, byte for byte; the link leads to the twin; llms.txt and llms-full.txt are
served from the site's root; no request leaves the site, and axe finds nothing serious in
the button, the link or the status line."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from tests.browser.accessibility import FAILING_IMPACTS

_AXE = Axe()


def serious_findings_in(page: Page, selector: str) -> list[str]:
    """axe-core's serious or critical findings inside ``selector`` (this site's own markup; the
    whole page is the accessibility test's, under MkDocs, where Material's own are listed)."""
    found = _AXE.run(page, context=selector).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']}" for v in found if v["impact"] in FAILING_IMPACTS]


# The home page (a folder address at the root) and a page in a folder, with examples.
URLS = ("", "suspension/approval-gate/")
SITES = {"mkdocs": ("page", "built_site"), "zensical": ("zensical_page", "zensical_site")}


@pytest.mark.parametrize("generator", sorted(SITES))
def test_copy_page_puts_the_markdown_twin_on_the_clipboard(generator: str, request: pytest.FixtureRequest) -> None:
    page_fixture, site_fixture = SITES[generator]
    page: Page = request.getfixturevalue(page_fixture)
    site = request.getfixturevalue(site_fixture).site
    for by_keyboard, url in enumerate(URLS):
        twin = (site / url / "index.html.md").read_text(encoding="utf-8")
        page.goto(url)
        button = page.get_by_role("button", name="Copy page as Markdown")
        page.evaluate("() => navigator.clipboard.writeText('nothing copied yet')")
        if by_keyboard:
            button.focus()
            page.keyboard.press("Enter")
        else:
            button.click()
        page.locator(".vd-copy-status", has_text="Copied the page as Markdown").wait_for()
        assert page.evaluate("() => navigator.clipboard.readText()") == twin, f"{generator}: {url or 'home'}"
        link = page.get_by_role("link", name="View as Markdown")
        href = link.evaluate("a => a.href")
        assert href == page.url.split("#")[0] + "index.html.md"
        served = page.request.get(href)
        assert served.ok and served.text() == twin
        assert serious_findings_in(page, ".vd-page-actions") == [], f"{generator}: {url or 'home'}"
    for name in ("llms.txt", "llms-full.txt"):
        served = page.request.get(name)
        assert served.ok and served.text() == (site / name).read_text(encoding="utf-8")
    page.goto("404.html")
    page.locator("article h1").wait_for()
    assert page.locator(".vd-page-actions").count() == 0, "the 404 page has no twin to copy"
    assert not page.log.errors and not page.log.blocked, page.log
