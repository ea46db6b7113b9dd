"""The kept Chromiums (tests/browser/browsers.py): a Playwright that cannot start fails each
job with why, instead of leaving in_browsers waiting for ever."""

from __future__ import annotations

import pytest

from tests.browser import browsers


def test_a_playwright_that_cannot_start_fails_every_job_and_in_browsers_raises_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken() -> object:
        raise RuntimeError("no driver here")

    monkeypatch.setattr(browsers, "sync_playwright", broken)
    thread = browsers.BrowserThread("broken")
    try:
        for _ in range(2):  # the first job and any later one
            with pytest.raises(RuntimeError, match="no driver here"):
                thread.submit(lambda chromium: "read").result(timeout=30)
    finally:
        thread.close()
    assert not thread._thread.is_alive()

    monkeypatch.setattr(browsers, "_THREADS", [])
    try:
        with pytest.raises(RuntimeError, match="no driver here"):
            browsers.in_browsers(["a", "b", "c"], lambda chromium, item: item, workers=2)
    finally:
        browsers.close_browser_threads()
