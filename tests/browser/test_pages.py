"""Every page, loaded once in a fresh context: no console errors, every heading anchor and every
link between pages resolves, every code block has a copy button, no list is left as raw
Markdown, and it is photographed at a desktop and a phone width into ``build/screenshots/``
(where it must not scroll sideways).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable
from urllib.parse import unquote, urlsplit

import pytest

from tests.browser.conftest import PHONE, Visit
from tests.browser.pages import Page as SitePage
from tests.browser.pages import site_pages

PAGES = site_pages()


@pytest.mark.parametrize("site_page", PAGES, ids=str)
def test_page_raises_no_console_errors(visit: Callable[[SitePage], Visit], site_page: SitePage) -> None:
    # Off-site requests are blocked by the test (and their "Failed to load resource" lines
    # with them); anything else the page logs as an error, or throws, fails here.
    seen = visit(site_page)
    if seen.errors:
        pytest.fail(
            f"{site_page}: the page reported errors:\n" + "\n".join(f"    {e}" for e in seen.errors), pytrace=False
        )


@pytest.mark.parametrize("site_page", PAGES, ids=str)
def test_every_heading_anchor_resolves(visit: Callable[[SitePage], Visit], site_page: SitePage) -> None:
    seen = visit(site_page)
    assert seen.headerlinks, f"{site_page}: no heading has an anchor link (toc permalink off?)"
    problems = []
    for link in seen.headerlinks:
        target = link["fragment"]
        if not link["samePage"] or not target or target != link["heading"]:
            problems.append(
                f"{link['text']!r}: anchor {link['href']!r} does not point at its heading (id {link['heading']!r})"
            )
        elif seen.ids.count(target) != 1:
            problems.append(f"{link['text']!r}: id {target!r} is on the page {seen.ids.count(target)} times")
    if problems:
        pytest.fail(f"{site_page}: heading anchors:\n" + "\n".join(f"    {p}" for p in problems), pytrace=False)


def _static_ids(html: Path) -> set[str]:
    return set(re.findall(r'\sid="([^"]+)"', html.read_text(encoding="utf-8")))


@pytest.mark.parametrize("site_page", PAGES, ids=str)
def test_every_link_between_pages_resolves(
    visit: Callable[[SitePage], Visit], site_page: SitePage, site_url: str, built_site
) -> None:
    """Every same-site link (navigation, content, footer, tab labels) reaches a file of the
    built site, and its fragment, if any, an id on the target page (as loaded, for links within
    the page; in the target's HTML otherwise)."""
    seen = visit(site_page)
    site_root = built_site.site
    here = site_url + site_page.url
    problems = []
    checked = 0
    for link in seen.links:
        href = link["href"]
        if not href.startswith(site_url):
            continue
        checked += 1
        url = urlsplit(href)
        path = unquote(url.path)
        target = site_root / path.lstrip("/")
        if path.endswith("/"):
            target = target / "index.html"
        if not target.is_file():
            problems.append(f"{link['text']!r} -> {href}: no such file in the site ({target.relative_to(site_root)})")
            continue
        fragment = unquote(url.fragment)
        if not fragment:
            continue
        on_same_page = href.split("#")[0] == here
        ids = set(seen.ids) if on_same_page else _static_ids(target)
        if fragment not in ids:
            problems.append(f"{link['text']!r} -> {href}: no element with id {fragment!r} on the target page")
    assert checked, f"{site_page}: no links to other pages found"
    if problems:
        pytest.fail(f"{site_page}: broken links:\n" + "\n".join(f"    {p}" for p in problems), pytrace=False)


@pytest.mark.parametrize("site_page", PAGES, ids=str)
def test_every_code_block_has_a_copy_button(visit: Callable[[SitePage], Visit], site_page: SitePage) -> None:
    seen = visit(site_page)
    missing = [block["id"] or "(no id)" for block in seen.code_blocks if block["copies"] != f"#{block['id']} > code"]
    assert not missing, f"{site_page}: code blocks without a copy button of their own: {', '.join(missing)}"


@pytest.mark.parametrize("site_page", PAGES, ids=str)
def test_no_list_is_left_as_raw_markdown(visit: Callable[[SitePage], Visit], site_page: SitePage) -> None:
    # A list glued to the line above it (no blank line between) shows its "- " markers as text.
    seen = visit(site_page)
    if seen.unrendered_lists:
        pytest.fail(
            f"{site_page}: paragraphs that hold an unrendered list:\n"
            + "\n".join(f"    {text!r}" for text in seen.unrendered_lists),
            pytrace=False,
        )


@pytest.mark.parametrize("site_page", PAGES, ids=str)
def test_screenshots_at_desktop_and_phone_width(visit: Callable[[SitePage], Visit], site_page: SitePage) -> None:
    seen = visit(site_page)
    for shot in (seen.desktop_shot, seen.phone_shot):
        assert shot.is_file() and shot.stat().st_size > 0, f"{site_page}: no screenshot at {shot}"
    # A page wider than the phone scrolls sideways as a whole; wide code and tables must
    # scroll inside their own boxes instead.
    assert seen.phone_overflow <= 0, (
        f"{site_page}: at {PHONE['width']}px the page is {seen.phone_overflow}px "
        f"wider than the screen (see {seen.phone_shot})"
    )
