"""The author loop in Chromium: an open page reloads by itself after a save, shows the new
program, carries the failure banner while a save broke verification, and loses it once fixed."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser

from tests.browser.conftest import new_context
from tests.browser.pages import SCREENSHOTS
from tests.serving import PROGRAM, make_project, serving
from verified_docs.serve.preview import BANNER_ID

OLD_COMMENT = "# First call: nothing has been approved yet, so suspend with a Request."
NEW_COMMENT = "# First call: nothing is approved yet, so suspend with a Request."
PRINTED = 'f"reviewer asked: {request.prompt}"'
BROKEN = 'f"reviewer was asked: {request.prompt}"'
CYCLE_MS = 180_000  # one cycle verifies a scenario and builds the site, on a shared machine


def edit(path: Path, old: str, new: str) -> None:
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")


def test_an_open_page_reloads_after_a_save_and_carries_the_banner_while_it_is_broken(
    browser: Browser, tmp_path: Path
) -> None:
    project = make_project(tmp_path)
    with serving(project) as served:
        assert served.next_epoch(0)["ok"] is True, served.printed()
        context, log = new_context(browser, served.url)
        try:
            page = context.new_page()
            page.goto(served.url, wait_until="load")
            assert OLD_COMMENT in page.locator("pre").first.inner_text()
            banner = page.locator(f"#{BANNER_ID}")
            assert banner.count() == 0

            with page.expect_event("load", timeout=CYCLE_MS):  # the page's own script reloads it
                edit(project / PROGRAM, OLD_COMMENT, NEW_COMMENT)
            assert NEW_COMMENT in page.locator("pre").first.inner_text(), served.printed()
            assert banner.count() == 0

            with page.expect_event("load", timeout=CYCLE_MS):
                edit(project / PROGRAM, PRINTED, BROKEN)
            assert banner.is_visible(), served.printed()
            assert "The last save failed verification at" in banner.inner_text()
            assert f"{PROGRAM}.out:1: printed output differs from the golden output" in banner.inner_text()
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / "serve-banner-desktop.png"))
            assert served.proc.poll() is None
            # Material's instant navigation fetches the next page itself: it must carry the banner too.
            page.get_by_role("link", name="Other").first.click()
            page.wait_for_url("**/other/")
            assert banner.is_visible() and "The last save failed verification at" in banner.inner_text()
            page.go_back()
            page.wait_for_url(served.url)

            with page.expect_event("load", timeout=CYCLE_MS):
                edit(project / PROGRAM, BROKEN, PRINTED)
            assert banner.count() == 0, served.printed()
            assert NEW_COMMENT in page.locator("pre").first.inner_text()
            assert log.errors == [] and log.blocked == []
        finally:
            context.close()
