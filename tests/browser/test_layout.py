"""Every code block fits the page at 1280 px: no reader scrolls sideways to read a line.

Each page of the built site is read at the desktop size (1280x800) with every folded
program unfolded (a reader may unfold it), in its one ``visit``, and each code block in the
content must be no wider than its box. ``nox -s docs`` checks the same rule first, in characters
(``verified_docs/render/code_width.py``: at most 80 per shown line); this test measures the pixels.
"""

from __future__ import annotations

from typing import Callable

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import DESKTOP, Visit
from tests.browser.pages import Page as SitePage
from tests.browser.pages import site_pages
from tests.browser.reading import OVERFLOWING

PAGES = site_pages()


@pytest.mark.parametrize("site_page", PAGES, ids=str)
def test_every_code_block_fits_at_1280_px(visit: Callable[[SitePage], Visit], site_page: SitePage) -> None:
    wide = visit(site_page).wide_code
    if wide:
        pytest.fail(
            f"{site_page}: {len(wide)} code block(s) scroll sideways at {DESKTOP['width']} px:\n"
            + "\n".join(f"    {w}" for w in wide),
            pytrace=False,
        )


def test_a_long_line_is_caught(page: Page) -> None:
    """The check can fail: a program line longer than the box scrolls."""
    page.goto(next(p for p in PAGES if p.url == "").url)  # the home page: no code block of its own
    page.evaluate("""() => {
        const pre = document.createElement('pre');
        const code = document.createElement('code');
        code.textContent = 'x = "' + 'a'.repeat(200) + '"';
        pre.appendChild(code);
        document.querySelector('.md-content article').appendChild(pre);
    }""")
    (wide,) = page.evaluate(OVERFLOWING)
    assert wide.startswith("untitled block: ") and "(206 characters)" in wide
