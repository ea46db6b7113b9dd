"""axe-core in Chromium, and the findings that are Material's own rather than this site's.

A finding fails the accessibility test unless its node is one of Material's, listed in
:data:`THEME_INHERENT` by rule id with the element it sits on and why it is not ours to fix:
listed, never filtered out silently. ``visit`` (``conftest.py``) runs :func:`violations` once
per page, in the same load the other page checks read.
"""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

FAILING_IMPACTS = ("serious", "critical")
# rule id -> (CSS selector of Material's element, why it is the theme's and not ours)
THEME_INHERENT = {
    "aria-dialog-name": (".md-search", "Material's search overlay is role=dialog with no accessible name"),
    "color-contrast": (".md-copyright", "Material's footer credit is #7f7f7f on #171717 (4.47:1)"),
}
_AXE = Axe()


def violations(page: Page) -> tuple[list[str], list[str]]:
    """(ours, the theme's) serious or critical findings on ``page`` as it is now: one line per
    failing node, ``rule (impact): message at selector``."""
    ours, theirs = [], []
    for violation in _AXE.run(page).response["violations"]:
        if violation["impact"] not in FAILING_IMPACTS:
            continue
        for node in violation["nodes"]:
            selector = " ".join(str(t) for t in node["target"])
            message = (node.get("any") or node.get("all") or [{}])[0].get("message", violation["help"])
            line = f"{violation['id']} ({violation['impact']}): {message} at {selector}"
            inherent = THEME_INHERENT.get(violation["id"])
            on_theme = inherent and page.locator(selector).first.evaluate("(e, s) => !!e.closest(s)", inherent[0])
            (theirs if on_theme else ours).append(line)
    return ours, theirs
