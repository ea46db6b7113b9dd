"""The Chromiums the browser tests read pages in: Debian's ``/usr/bin/chromium`` driven by
Playwright, one per :class:`BrowserThread`, kept for the rest of the process.

Its own module, imported as ``tests.browser.browsers`` by the browser conftest and the test
modules alike (as :mod:`tests.browser.early`): pytest imports the conftest as
``browser.conftest``, and a test module's ``from tests.browser.conftest import ...`` loads a
second copy of it, whose pool of threads would be a second one, never closed.
"""

from __future__ import annotations

import queue
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Callable, Sequence, TypeVar

import pytest
from playwright.sync_api import Browser, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
INSTALL_HINT = "install it from Debian's packages: apt-get update && apt-get install -y chromium (.ci/run does this)"
LAUNCH_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Chromium instances the per-page checks use side by side. One browser at a time left about a
# third of two cores idle (a page's load, axe-core and its pictures are CPU work); two fill
# them, and more only slow each page down.
BROWSERS = 2

T = TypeVar("T")
R = TypeVar("R")


def need_chromium() -> None:
    """FAIL the calling test with the install hint when Chromium is missing (never a skip)."""
    if not CHROMIUM.is_file():
        pytest.fail(f"{CHROMIUM} not found: the browser tests need Debian's Chromium; {INSTALL_HINT}", pytrace=False)


class BrowserThread:
    """A thread holding one Playwright and one Chromium for the rest of the process, running
    the functions given to :meth:`submit` one after the other (Playwright's sync API serves the
    thread that started it). Kept, not launched per call: starting Playwright and Chromium
    takes about 0.9 s, and under xdist the pages are read one call at a time. Chromium is
    launched again if it went away; if Playwright cannot start, every job fails with why."""

    def __init__(self, name: str) -> None:
        self._jobs: queue.SimpleQueue[tuple[Callable[[Browser], object], Future] | None] = queue.SimpleQueue()
        self._closed = False
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def submit(self, job: Callable[[Browser], R]) -> Future[R]:
        """Run ``job(chromium)`` in the thread; its result or exception comes in the future."""
        future: Future[R] = Future()
        self._jobs.put((job, future))
        return future

    def close(self) -> None:
        """Close Chromium and Playwright once the jobs already given are done (at most 60 s)."""
        self._jobs.put(None)
        self._thread.join(timeout=60)

    def _serve(self) -> None:
        try:
            with sync_playwright() as playwright:
                self._run_jobs(
                    lambda: playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS)
                )
        except BaseException as e:  # Playwright did not start: fail every job until closed
            while not self._closed and (given := self._jobs.get()) is not None:
                given[1].set_exception(e)

    def _run_jobs(self, launch: Callable[[], Browser]) -> None:
        chromium: Browser | None = None
        try:
            while (given := self._jobs.get()) is not None:
                job, future = given
                try:
                    if chromium is None or not chromium.is_connected():
                        chromium = launch()
                    future.set_result(job(chromium))
                except BaseException as e:  # the caller re-raises it
                    future.set_exception(e)
            self._closed = True
        finally:
            if chromium is not None:
                chromium.close()


_THREADS: list[BrowserThread] = []
_THREADS_LOCK = threading.Lock()


def browser_threads(count: int) -> list[BrowserThread]:
    """The process's first ``count`` :class:`BrowserThread` s, started when first asked for."""
    with _THREADS_LOCK:
        while len(_THREADS) < count:
            _THREADS.append(BrowserThread(f"browser-{len(_THREADS)}"))
        return _THREADS[:count]


def close_browser_threads() -> None:
    """Close every :class:`BrowserThread` of the process (the conftest does at the session's end)."""
    with _THREADS_LOCK:
        for thread in _THREADS:
            thread.close()
        _THREADS.clear()


def in_browsers(items: Sequence[T], work: Callable[[Browser, T], R], workers: int = BROWSERS) -> dict[T, R]:
    """``work(browser, item)`` for every item, ``workers`` items at a time, each in a
    :class:`BrowserThread` with a Chromium of its own. Returns the results by item, in the
    order given; the first exception raised by ``work`` is raised here, after every thread
    stopped taking items."""
    need_chromium()
    todo = list(items)
    lock = threading.Lock()

    def take_items(chromium: Browser) -> dict[T, R]:
        done: dict[T, R] = {}
        while True:
            with lock:
                if not todo:
                    return done
                item = todo.pop(0)
            done[item] = work(chromium, item)

    futures = [thread.submit(take_items) for thread in browser_threads(max(1, min(workers, len(todo))))]
    results: dict[T, R] = {}
    failure: BaseException | None = None
    for future in futures:
        try:
            results.update(future.result())
        except BaseException as e:  # re-raised below, once every thread stopped
            with lock:
                todo.clear()
            failure = failure or e
    if failure is not None:
        raise failure
    return {item: results[item] for item in items}
