"""Browser fixtures: the built site served on 127.0.0.1, and Debian's Chromium driven by Playwright.

- ``site_url`` (session): ``built_site`` (root conftest) served by ``http.server`` on an
  ephemeral port until the session ends; the build must have passed.
- Reading early: once ``built_site`` passed (it is built for the first test that needs it,
  usually long before the browser tests), every page is read for ``visit`` in a thread of the
  session's own (:mod:`tests.browser.early`), while the tests before the browser tests run in
  the main thread. Those mostly use one core at a time, and the browsers fill the other. The
  browser tests then take what was read; the checks are the same.
- ``browser`` (session): ``/usr/bin/chromium``, headless; a missing Chromium FAILS every browser
  test with the install hint (it is never skipped).
- ``page``: a page in a fresh context (``new_context``: own localStorage, clipboard permission,
  desktop viewport, light colour scheme). Requests that leave 127.0.0.1 are blocked, so a test
  never depends on the network; ``page.log`` records console errors, page errors and what was
  blocked.
- ``visit`` (session): loads a page of the real site once and keeps what every per-page test
  reads (errors, requests, anchors, links, ids, tab sets, code blocks, unrendered lists,
  diagrams, axe findings, code widths, the words only a hidden tab holds, and what its copy
  buttons copied), with its screenshots in ``build/screenshots/``.
- ``zensical_url`` (session) and ``zensical_page``: the same for the site built with Zensical.
- ``linked_tabs_url`` (session): the sample site in ``samples/linked-tabs`` built with the real
  ``mkdocs.yml`` (``INHERIT``), for tab linking with two languages (the real site has one).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import http.server
import os
import re
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterator, Literal, Sequence

import pytest

try:
    from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Route, sync_playwright
except ImportError as missing:
    raise ImportError(
        f"{missing}: the browser tests need Playwright for Python; "
        "install the test extra: pip install -e '.[test]' (nox -s tests does)"
    ) from missing

from conftest import BuiltSite, when_site_built
from parallel import in_a_worker, once_in, shared_folder
from tests.browser.accessibility import violations
from tests.browser.browsers import CHROMIUM, LAUNCH_ARGS, close_browser_threads, in_browsers, need_chromium
from tests.browser.copying import EXAMPLE_PAGES, Copies, copy_page
from tests.browser.dom import TabSet, tab_sets
from tests.browser.early import STARTED, early_result
from tests.browser.pages import ROOT, SCREENSHOTS, site_pages
from tests.browser.pages import Page as SitePage
from tests.browser.reading import DRAWN, HIDDEN_TAB_WORDS, OPEN_SHADOWS, OVERFLOWING

# Sample sites are inputs, not tests.
collect_ignore = ["samples"]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SAMPLES = Path(__file__).parent / "samples"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
        pass


@contextmanager
def serve(folder: Path) -> Iterator[str]:
    """Serve ``folder`` on 127.0.0.1 (ephemeral port) in a thread; yields the base URL ending in '/'."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


SERVED = pytest.StashKey[dict[Path, str]]()
SCREENSHOTS_EMPTIED = pytest.StashKey[bool]()


def pytest_configure(config: pytest.Config) -> None:
    # Before the early reading registers its pool's shutdown: cleanups run last first, so the
    # browsers close after that pool stopped giving them work.
    config.add_cleanup(close_browser_threads)


def served(config: pytest.Config, folder: Path) -> str:
    """The URL ``folder`` is served at (:func:`serve`), from the first call until the session
    ends, so the early reading and the tests see the one origin."""
    urls = config.stash.setdefault(SERVED, {})
    if folder not in urls:
        stack = contextlib.ExitStack()
        urls[folder] = stack.enter_context(serve(folder))
        config.add_cleanup(stack.close)
    return urls[folder]


def fresh_screenshots(config: pytest.Config) -> Path:
    """``build/screenshots/``, emptied of the previous run's pictures once per session."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    if not config.stash.get(SCREENSHOTS_EMPTIED, False):
        for old in [*SCREENSHOTS.glob("*.png"), *SCREENSHOTS.glob("*.jpg")]:
            old.unlink()
        config.stash[SCREENSHOTS_EMPTIED] = True
    return SCREENSHOTS


@pytest.fixture(scope="session")
def site_url(built_site, pytestconfig: pytest.Config) -> str:
    if built_site.returncode != 0:
        pytest.fail(f"the strict build failed, so there is no site to test:\n{built_site.output}", pytrace=False)
    return served(pytestconfig, built_site.site)


@pytest.fixture(scope="session")
def screenshots(pytestconfig: pytest.Config) -> Path:
    """``build/screenshots/``, emptied of the previous run's pictures (under xdist by the
    first worker that asks, not again by the others)."""
    if in_a_worker(pytestconfig):
        return once_in(shared_folder(pytestconfig), "screenshots", functools.partial(fresh_screenshots, pytestconfig))
    return fresh_screenshots(pytestconfig)


def pytest_collection_finish(session: pytest.Session) -> None:
    if any("visit" in getattr(item, "fixturenames", ()) for item in session.items):
        when_site_built(session.config, functools.partial(_start_early, session.config))


def _start_early(config: pytest.Config, built: BuiltSite, _tmp_path_factory: pytest.TempPathFactory) -> None:
    url = served(config, built.site)
    shots = fresh_screenshots(config)
    # One thread, which reads the pages with its BROWSERS Chromiums.
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="early")
    config.add_cleanup(functools.partial(pool.shutdown, wait=True, cancel_futures=True))
    config.stash[STARTED] = {"visit": pool.submit(read_every_page, url, shots)}


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    need_chromium()
    # launch() gives each run a fresh temporary user-data dir, removed on close.
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS)
        yield browser
        browser.close()


# A page loaded beside another on a busy machine may take longer than the 10 s a missing element gets.
NAVIGATION_TIMEOUT_MS = 60_000
# A full-page picture of a tall page is work, not an element that may be missing: it gets a
# page load's time, not the 10 s default (exceeded at load average 40 beside the other tests).
SCREENSHOT_TIMEOUT_MS = NAVIGATION_TIMEOUT_MS
# JPEG, not PNG: Chromium encodes a tall page's PNG in 0.6-2.8 s and its JPEG in 0.35-0.9 s
# (measured on this site, 2-core machine); the pictures are for looking at, not for diffing.
SCREENSHOT_QUALITY = 80


def photograph(page: Page, path: Path) -> Path:
    """A full-page JPEG of ``page`` at ``path`` (``.jpg``); returns ``path``."""
    page.screenshot(path=path, full_page=True, type="jpeg", quality=SCREENSHOT_QUALITY, timeout=SCREENSHOT_TIMEOUT_MS)
    return path


@dataclass
class PageLog:
    """What a page reported: console errors and uncaught exceptions as ``url: text`` lines,
    and the off-site URLs the test blocked (a page's only route to the network)."""

    origin: str
    errors: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)

    def on_console(self, message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        source = message.location.get("url", "")
        # Chromium reports every blocked request as "Failed to load resource"; those are ours.
        if source in self.blocked and message.text.startswith("Failed to load resource"):
            return
        self.errors.append(f"console error at {source or '?'}:{message.location.get('lineNumber', 0)}: {message.text}")

    def on_page_error(self, error: Exception) -> None:
        self.errors.append(f"uncaught exception: {error}")

    def block(self, route: Route) -> None:
        self.blocked.append(route.request.url)
        route.abort("blockedbyclient")


def new_context(browser: Browser, base_url: str) -> tuple[BrowserContext, PageLog]:
    """A fresh context on ``base_url``: desktop size, light scheme, clipboard allowed, offline."""
    context = browser.new_context(viewport=DESKTOP, color_scheme="light", base_url=base_url)
    context.set_default_timeout(10_000)  # a missing element fails in seconds, not Playwright's 30
    context.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url.rstrip("/"))
    log = PageLog(base_url)
    context.route(re.compile("^(?!" + re.escape(base_url) + ")"), log.block)
    context.on("console", log.on_console)
    context.on("weberror", lambda web_error: log.on_page_error(web_error.error))
    return context, log


def _fresh_page(browser: Browser, url: str) -> Iterator[Page]:
    context, log = new_context(browser, url)
    page = context.new_page()
    page.log = log  # type: ignore[attr-defined]
    yield page
    context.close()


@pytest.fixture
def page(browser: Browser, site_url: str) -> Iterator[Page]:
    """A page of the real site in a fresh context; ``page.log`` is its :class:`PageLog`."""
    yield from _fresh_page(browser, site_url)


@pytest.fixture(scope="session")
def zensical_url(zensical_site) -> Iterator[str]:
    """The site built with Zensical (root conftest's ``zensical_site``), served like ``site_url``."""
    if zensical_site.returncode != 0:
        pytest.fail(f"the Zensical build failed, so there is no site to test:\n{zensical_site.output}", pytrace=False)
    with serve(zensical_site.site) as url:
        yield url


@pytest.fixture
def zensical_page(browser: Browser, zensical_url: str) -> Iterator[Page]:
    """Like ``page``, on the Zensical build."""
    yield from _fresh_page(browser, zensical_url)


@pytest.fixture(scope="session")
def linked_tabs_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The two-page sample in ``samples/linked-tabs``, built strictly with the real theme,
    features and Markdown extensions (the config INHERITs ``mkdocs.yml``; no hook, own nav)."""
    work = tmp_path_factory.mktemp("linked-tabs")
    config = work / "mkdocs.yml"
    config.write_text(
        f"INHERIT: {ROOT / 'mkdocs.yml'}\n"
        f"docs_dir: {SAMPLES / 'linked-tabs'}\n"
        f"site_dir: {work / 'site'}\n"
        "hooks: []\n"
        "extra_javascript: []\nextra_css: []\n"  # the site's scripts and styles live in its docs_dir
        "nav: [index.md, other.md]\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode != 0:
        pytest.fail(f"building the linked-tabs sample failed:\n{done.stdout}{done.stderr}", pytrace=False)
    with serve(work / "site") as url:
        yield url


_READ = r"""() => ({
  headerlinks: Array.from(document.querySelectorAll('a.headerlink'), a => {
    const heading = a.closest('h1, h2, h3, h4, h5, h6');
    const url = new URL(a.href);
    return {href: a.getAttribute('href'), heading: heading ? heading.id : null,
            samePage: url.origin + url.pathname === location.origin + location.pathname,
            fragment: decodeURIComponent(url.hash.slice(1)),
            text: heading ? heading.innerText.replace(a.innerText, '').trim() : a.outerHTML};
  }),
  links: Array.from(document.querySelectorAll('a[href]'), a => ({href: a.href, text: a.innerText.trim()})),
  ids: Array.from(document.querySelectorAll('[id]'), e => e.id),
  // A paragraph holding a line that starts like a list item is a list Markdown did not render.
  unrenderedLists: Array.from(document.querySelectorAll('.md-content p'))
    .filter(p => /\n\s*([-*+]|\d+\.) /.test(p.textContent)).map(p => p.textContent.trim().slice(0, 120)),
  editLinks: Array.from(document.querySelectorAll('a.md-content__button[href]'), a => a.getAttribute('href')),
  codeBlocks: Array.from(document.querySelectorAll('pre > code'), code => {
    const pre = code.parentElement;
    const button = pre.querySelector('button[data-clipboard-target]');
    return {id: pre.id, copies: button ? button.getAttribute('data-clipboard-target') : null};
  }),
})"""


@dataclass(frozen=True)
class Visit:
    """What one page showed in its one load: its log, DOM facts, its drawn diagrams
    (:data:`~tests.browser.reading.DRAWN`), the axe findings of ours, the code blocks too wide
    at 1280 px with every program unfolded, where its screenshots went, and, for a page with
    examples, what :func:`~tests.browser.copying.copy_page` found and copied (problems, copies
    by scenario; None for a page without examples)."""

    page: SitePage
    errors: tuple[str, ...]
    blocked: tuple[str, ...]
    headerlinks: tuple[dict, ...]
    links: tuple[dict, ...]
    edit_links: tuple[str, ...]
    ids: tuple[str, ...]
    code_blocks: tuple[dict, ...]
    tab_sets: tuple[TabSet, ...]
    unrendered_lists: tuple[str, ...]
    drawn: tuple[dict, ...]
    axe_ours: tuple[str, ...]
    wide_code: tuple[str, ...]
    phone_overflow: int
    desktop_shot: Path
    phone_shot: Path
    hidden_tab_words: tuple[str, ...]
    copied: tuple[tuple[str, ...], dict[str, Copies]] | None


def load_drawn(page: Page, url: str, wait_until: Literal["load", "networkidle"] = "networkidle") -> None:
    """Open ``url`` in ``page`` with the diagrams' shadow roots open (:data:`OPEN_SHADOWS`), and
    wait until Material has drawn every sequence diagram: the last thing it sets up, so the
    copy buttons and tabs are there too. Measured on a loaded 2-core machine, "networkidle"
    alone came before that on the approval gate. ``wait_until="load"`` starts that wait at the
    load event instead of half a second of quiet network after it: for a caller that waits for
    the network itself before it reads what was requested."""
    page.add_init_script(OPEN_SHADOWS)
    page.goto(url, wait_until=wait_until)
    page.wait_for_function("() => !document.querySelector('pre.mermaid')", timeout=60_000)


def read_page(browser: Browser, site_url: str, site_page: SitePage, screenshots: Path) -> Visit:
    """Load ``site_page`` once in a fresh context and read everything the per-page tests check:
    at 1280x800 its facts, diagrams and axe findings, its picture, its code widths with every
    program unfolded (folded back after); then at 390x844 its overflow and picture; then, for
    a page with examples, back at 1280x800, scrolled to the top and with reduced motion, its copy buttons
    (:func:`~tests.browser.copying.copy_page`: one load instead of a second, 1.2-1.6 s a page).
    Console errors while copying are the page's errors too."""
    context, log = new_context(browser, site_url)
    try:
        page = context.new_page()
        # The page is read from its load on; the requests it made are read once the network
        # has been quiet (below), so a late request is still seen (0.8-2.2 s a load measured
        # on 2026-12-06, 1.2-2.8 s when the load waited for the network first).
        load_drawn(page, site_page.url, wait_until="load")
        facts = page.evaluate(_READ)
        hidden = page.evaluate(HIDDEN_TAB_WORDS)
        sets = tuple(tab_sets(page))
        drawn = page.evaluate(DRAWN)
        ours, _ = violations(page)
        desktop = photograph(page, screenshots / f"{site_page.slug}-desktop.jpg")
        wide = page.evaluate(OVERFLOWING)
        page.set_viewport_size(PHONE)
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        phone = photograph(page, screenshots / f"{site_page.slug}-phone.jpg")
        copied = None
        if site_page in EXAMPLE_PAGES:
            page.set_viewport_size(DESKTOP)
            page.evaluate("() => window.scrollTo(0, 0)")
            # A reader who asks for less motion: Material then turns its transitions off, and
            # the "Copied to clipboard" notice each click shows no longer animates over a tall
            # page. The copies are the same; the phase took 23% less CPU (measured 2026-12-08,
            # two pages, three runs each).
            page.emulate_media(reduced_motion="reduce")
            problems, copies = copy_page(page, site_page)
            copied = (tuple(problems), copies)
        page.wait_for_load_state("networkidle")  # every request the page makes is in the log
    finally:
        context.close()
    return Visit(
        site_page,
        tuple(log.errors),
        tuple(log.blocked),
        tuple(facts["headerlinks"]),
        tuple(facts["links"]),
        tuple(facts["editLinks"]),
        tuple(facts["ids"]),
        tuple(facts["codeBlocks"]),
        sets,
        tuple(facts["unrenderedLists"]),
        tuple(drawn),
        tuple(ours),
        tuple(wide),
        overflow,
        desktop,
        phone,
        tuple(hidden),
        copied,
    )


def read_every_page(site_url: str, screenshots: Path, pages: Sequence[SitePage] | None = None) -> dict[SitePage, Visit]:
    """:func:`read_page` for ``pages`` (default: every page of the site), :data:`BROWSERS` at a time."""
    return in_browsers(
        site_pages() if pages is None else pages,
        lambda browser, site_page: read_page(browser, site_url, site_page, screenshots),
    )


def rebased(seen: Visit, old_url: str, new_url: str) -> Visit:
    """``seen`` as if read at ``new_url``: the absolute URLs it holds (link targets, and the
    sources in its error lines) moved from ``old_url``. Another xdist worker read it, on the
    site as that worker serves it."""

    def move(text: str) -> str:
        return new_url + text[len(old_url) :] if text.startswith(old_url) else text.replace(old_url, new_url)

    return replace(
        seen,
        links=tuple({**link, "href": move(link["href"])} for link in seen.links),
        errors=tuple(move(e) for e in seen.errors),
    )


def shared_visit(config: pytest.Config, site_url: str, screenshots: Path, site_page: SitePage) -> Visit:
    """Under xdist, what ``site_page`` showed, read once for every worker: by the first that
    asks (:func:`~parallel.once_in`), on its own server, and rebased to this worker's."""
    read_at, seen = once_in(
        shared_folder(config),
        "visit-" + hashlib.sha256(str(site_page).encode()).hexdigest()[:16],
        lambda: (site_url, read_every_page(site_url, screenshots, [site_page])[site_page]),
    )
    return seen if read_at == site_url else rebased(seen, read_at, site_url)


@pytest.fixture(scope="session")
def visit(site_url: str, screenshots: Path, pytestconfig: pytest.Config) -> Callable[[SitePage], Visit]:
    """What each page showed in its one load (:func:`read_page`): every page of the site, read
    early (see the module docstring) or at the first call; a page outside the site is read when
    asked. Under xdist each page is read when a test first asks for it (:func:`shared_visit`)."""
    done: dict[SitePage, Visit] = {}

    def load(site_page: SitePage) -> Visit:
        if in_a_worker(pytestconfig):
            if site_page not in done:
                done[site_page] = shared_visit(pytestconfig, site_url, screenshots, site_page)
            return done[site_page]
        if not done:
            early = early_result(pytestconfig, "visit")
            done.update(early if isinstance(early, dict) else read_every_page(site_url, screenshots))
        if site_page not in done:
            done.update(read_every_page(site_url, screenshots, [site_page]))
        return done[site_page]

    return load
