"""axe-core on every page: no serious or critical violation that this project's markup causes.

axe-core (bundled by axe-playwright-python) runs in Chromium on each page of the built site,
at the desktop size and in the light scheme, the reader's default, with the diagrams' shadow
roots open (so axe reads the drawn SVG too). A violation fails unless its node is one of
Material's own, listed in ``accessibility.py`` by rule id with the element it sits on and why
it is not ours to fix: listed, never filtered out silently. Everything else on the page is ours:
the examples and their captions, the evidence boxes, the diagrams, the claims' links, the
prose of every page (the home page included), and the code highlighting palette we set.
"""

from __future__ import annotations

from typing import Callable

import pytest
from playwright.sync_api import Page

from tests.browser.accessibility import THEME_INHERENT, violations
from tests.browser.conftest import Visit
from tests.browser.pages import Page as SitePage
from tests.browser.pages import site_pages

PAGES = site_pages()


@pytest.mark.parametrize("site_page", PAGES, ids=str)
def test_page_has_no_serious_accessibility_violation_of_ours(
    visit: Callable[[SitePage], Visit], site_page: SitePage
) -> None:
    ours = visit(site_page).axe_ours
    if ours:
        pytest.fail(
            f"{site_page}: {len(ours)} serious or critical axe-core finding(s) in this site's markup:\n"
            + "\n".join(f"    {line}" for line in ours),
            pytrace=False,
        )


def test_the_theme_findings_listed_are_still_there(page: Page) -> None:
    """Each listed theme finding still occurs (on the home page): a list entry that matches
    nothing any more must go, so the list never excuses more than it should."""
    page.goto(PAGES[0].url, wait_until="networkidle")
    _, theirs = violations(page)
    for rule in THEME_INHERENT:
        assert any(line.startswith(rule + " ") for line in theirs), (
            f"{rule} no longer occurs; remove it from THEME_INHERENT"
        )


def test_a_contrast_failure_in_our_markup_is_caught(page: Page) -> None:
    """The check can fail: a caption drawn in a colour too light for its background is ours."""
    page.goto(PAGES[0].url, wait_until="networkidle")
    page.evaluate("""() => {
        const note = document.createElement('small');
        note.className = 'verified-note';
        note.style.color = '#bbbbbb';
        note.textContent = 'Ran green against toolnexus in this build';
        document.querySelector('.md-content article').appendChild(note);
    }""")
    ours, _ = violations(page)
    assert any(line.startswith("color-contrast (serious)") and "small" in line for line in ours), ours
