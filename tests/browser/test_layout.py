"""Every code block fits the page at 1280 px: no reader scrolls sideways to read a line.

Each page of the built site is loaded at the desktop size (1280x800) with every folded
program unfolded (a reader may unfold it), and each code block in the content must be no
wider than its box.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import DESKTOP
from tests.browser.pages import Page as SitePage
from tests.browser.pages import site_pages

PAGES = site_pages()
_OVERFLOWING = """() => {
  document.querySelectorAll('.vd-program').forEach(b => b.classList.add('vd-expanded'));
  return [...document.querySelectorAll('.md-content pre > code')]
    .filter(code => code.scrollWidth > code.clientWidth + 1)
    .map(code => {
      const block = code.closest('.highlight');
      const title = block && block.querySelector('.filename');
      const longest = code.innerText.split('\\n').reduce((a, b) => (b.length > a.length ? b : a), '');
      return `${title ? title.textContent : 'untitled block'}: ${code.scrollWidth}px in ${code.clientWidth}px, ` +
             `longest line (${longest.length} characters): ${longest.trim()}`;
    });
}"""


@pytest.mark.parametrize("site_page", PAGES, ids=str)
def test_every_code_block_fits_at_1280_px(page: Page, site_page: SitePage) -> None:
    assert page.viewport_size == DESKTOP
    page.goto(site_page.url)
    wide = page.evaluate(_OVERFLOWING)
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
    (wide,) = page.evaluate(_OVERFLOWING)
    assert wide.startswith("untitled block: ") and "(206 characters)" in wide
