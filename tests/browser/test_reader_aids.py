"""What helps a reader use the site, checked under MkDocs and under Zensical alike (each test
runs on both session-built sites; neither is built again here):

- "Run it yourself": above an output, a console block with the command that prints it; the
  command, copied with its button and run in a shell as pasted, prints that output, and each
  output block names its run;
- on a phone (390x844): code in a table is never broken across lines, the table scrolls in
  its own box, and a diagram is drawn at its natural size, scrolling sideways, its labels as
  high as on a desktop;
- previous and next links at the foot of every page;
- search puts the how-to page first for five task queries (above every pitfall page);
- the header links to this project's repository and every page has its edit link, and a
  page makes no request beyond the site;
- the contract page folds each rule's details.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Iterator

import pytest
from playwright.sync_api import Page

from conftest import TEST_EDIT_URI, BuiltSite
from tests.browser.conftest import PHONE, load_drawn
from tests.browser.dom import copy_via_button
from tests.browser.pages import DOCS, ROOT, site_pages
from tests.browser.reading import OPEN_SHADOWS
from verified_docs.reader_commands import try_command
from verified_docs.render.edit_link import repository_of
from verified_docs.scenario.rules import load_rules
from verified_docs.verify.normalise import normalise

GENERATORS = ["mkdocs", "zensical"]
RULES = ROOT / "rules" / "spec-10.yaml"
# A reader's task in their words -> the how-to pages that answer it (either may come first).
TASKS = {
    "resume durable": ("suspension/answer-later/", "durable-host/"),
    "resume later": ("suspension/answer-later/", "durable-host/"),
    "ask the human for a value": ("suspension/ask-for-a-value/",),
    "timeout slow human": ("suspension/slow-humans/",),
    "streaming link": ("suspension/push-the-link-first/",),
}


@pytest.fixture(params=GENERATORS)
def generator(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def reader(generator: str, request: pytest.FixtureRequest) -> Iterator[tuple[Page, BuiltSite, str]]:
    """A fresh page of the site built by ``generator``, that site, and its base URL."""
    if generator == "mkdocs":
        yield (
            request.getfixturevalue("page"),
            request.getfixturevalue("built_site"),
            request.getfixturevalue("site_url"),
        )
    else:
        yield (
            request.getfixturevalue("zensical_page"),
            request.getfixturevalue("zensical_site"),
            request.getfixturevalue("zensical_url"),
        )


def _block(page: Page, title: str):
    return page.locator(f'.highlight:has(> .filename:text-is("{title}"))')


@functools.cache
def _pasted(command: str) -> subprocess.CompletedProcess[str]:
    """``command`` as a reader pastes it: into a shell, in the clone, with the project's Python
    first on PATH. Run once per command text: both generators' pages copy the same command,
    and the check of each page is that it copied that text (the run's result is the same)."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(["sh", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def test_a_copied_run_command_prints_the_output_shown_below_it(reader) -> None:
    """run-statuses shows two runs of budget.py printing the same lines: each output block
    names its run, and the command above budget-anthropic's, pasted into a shell, prints it."""
    page, _site, _url = reader
    page.goto("suspension/run-statuses/")
    titles = page.locator(".vd-output .filename, .highlight .filename").all_inner_texts()
    outputs = [t for t in titles if t.startswith("Output of")]
    assert outputs and all(re.fullmatch(r"Output of run [a-z0-9-]+ \(\w+\.py\)", t) for t in outputs), outputs
    assert len(set(outputs)) == len(outputs), f"two output blocks name the same run: {outputs}"
    command = _block(page, "Run budget-anthropic yourself")
    assert command.count() == 1, "no console block with the command above budget-anthropic's output"
    copied = copy_via_button(page, command)
    assert copied == try_command("suspension/run-statuses", "budget-anthropic")
    shown = copy_via_button(page, _block(page, "Output of run budget-anthropic (budget.py)"))
    done = _pasted(copied)
    assert done.returncode == 0, done.stderr
    assert normalise(done.stdout).rstrip() == normalise(shown).rstrip()
    assert not page.log.errors, page.log.errors


_BROKEN_CODE_IN_TABLES = """() => [...document.querySelectorAll('.md-content td code, .md-content th code')]
  .filter(code => code.getClientRects().length > 1).map(code => code.textContent)"""
# Each table's nearest box (itself included) that scrolls sideways when the table is too wide.
_TABLE_BOXES = """() => [...document.querySelectorAll('.md-content table')].map(table => {
  let box = table;
  while (box !== document.body && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
  return box === document.body ? 'none' : (box.scrollWidth > box.clientWidth ? 'scrolls' : 'fits');
})"""
_PAGE_OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"


def test_on_a_phone_tables_scroll_and_keep_their_code_whole(reader) -> None:
    page, _site, _url = reader
    page.set_viewport_size(PHONE)
    page.goto("suspension/production-checklist/")
    assert page.evaluate(_BROKEN_CODE_IN_TABLES) == []
    boxes = page.evaluate(_TABLE_BOXES)
    assert boxes and "none" not in boxes, f"a table with no box of its own to scroll in: {boxes}"
    assert page.evaluate(_PAGE_OVERFLOW) <= 0, "the page itself scrolls sideways"


def test_the_table_check_can_fail(reader) -> None:
    """Without the site's rule (Material's own: code breaks anywhere), the checklist breaks code."""
    page, _site, _url = reader
    page.set_viewport_size(PHONE)
    page.goto("suspension/production-checklist/")
    page.add_style_tag(content=".md-typeset td code { white-space: normal !important; word-break: break-all; }")
    assert page.evaluate(_BROKEN_CODE_IN_TABLES), "no code broke even with breaking allowed"
    page.add_style_tag(content=".md-typeset__scrollwrap, .md-typeset table { overflow: visible !important; }")
    assert "none" in page.evaluate(_TABLE_BOXES), "a table still has a box to scroll in"


_DIAGRAM_SIZES = """() => [...document.querySelectorAll('div.verified-diagram > div.mermaid')].map(host => {
  const svg = host.shadowRoot.querySelector('svg');
  const label = svg.querySelector('text.messageText');
  return {natural: parseFloat(svg.style.maxWidth), width: svg.getBoundingClientRect().width,
          label: label ? label.getBoundingClientRect().height : 0,
          scrolls: host.scrollWidth > host.clientWidth, focusable: host.tabIndex === 0};
})"""


def test_on_a_phone_a_diagram_is_drawn_at_its_natural_size_and_scrolls(reader) -> None:
    page, _site, url = reader
    load_drawn(page, url + "suspension/answer-later/")
    desktop = page.evaluate(_DIAGRAM_SIZES)
    page.set_viewport_size(PHONE)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    phone = page.evaluate(_DIAGRAM_SIZES)
    assert phone and len(phone) == len(desktop)
    for small, large in zip(phone, desktop, strict=True):
        assert abs(small["width"] - small["natural"]) < 1, f"drawn {small['width']} px wide, natural {small['natural']}"
        assert small["label"] >= large["label"] >= 12, f"labels {small['label']} px high on a phone"
        assert small["scrolls"] and small["focusable"], small
    assert page.evaluate(_PAGE_OVERFLOW) <= 0, "the page itself scrolls sideways"
    assert not page.log.errors and not page.log.blocked, page.log


class _Links(HTMLParser):
    """The ``href`` of every ``<a>`` by its classes, and the ``rel`` links."""

    def __init__(self) -> None:
        super().__init__()
        self.by_class: dict[str, list[str]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "a" and a.get("href"):
            for name in (a.get("class") or "").split():
                self.by_class.setdefault(name, []).append(str(a["href"]))


def _links(site: BuiltSite, url: str) -> dict[str, list[str]]:
    parser = _Links()
    parser.feed((site.site / url / "index.html").read_text(encoding="utf-8"))
    return parser.by_class


def test_every_page_has_previous_and_next_links_and_its_repository_and_edit_links(reader) -> None:
    page, site, _url = reader
    repository = repository_of(TEST_EDIT_URI)
    assert repository is not None
    pages = site_pages()
    problems = []
    for i, site_page in enumerate(pages_in_nav_order(site, pages)):
        links = _links(site, site_page)
        wanted = {"md-footer__link--prev": i > 0, "md-footer__link--next": i < len(pages) - 1}
        for name, present in wanted.items():
            if bool(links.get(name)) != present:
                problems.append(f"{site_page}: {name} {'missing' if present else 'on the last or first page'}")
        if links.get("md-source", [None])[0] != repository[0]:
            problems.append(f"{site_page}: the header links to {links.get('md-source')}, not {repository[0]}")
        source = next(p for p in pages if p.url == site_page).source.relative_to(DOCS).as_posix()
        if TEST_EDIT_URI + source not in links.get("md-content__button", []):
            problems.append(f"{site_page}: no edit link to {TEST_EDIT_URI + source}")
    assert not problems, "\n".join(problems)
    # In a browser: the next link leads on, and the header's link asks nothing of another host.
    page.goto("suspension/answer-later/", wait_until="networkidle")
    assert page.locator(f'a.md-source[href="{repository[0]}"]').first.is_visible()
    page.locator("a.md-footer__link--next").click()
    page.wait_for_url(re.compile(r".*/durable-host/$"))
    page.wait_for_load_state("networkidle")
    assert page.log.blocked == [], f"requests beyond the site: {page.log.blocked}"


def pages_in_nav_order(site: BuiltSite, pages) -> list[str]:
    """The pages' URLs in the order the footer links them: each page's next link, from the home page."""
    order = [""]
    while True:
        following = _links(site, order[-1]).get("md-footer__link--next")
        if not following:
            break
        target = os.path.normpath(os.path.join("/" + order[-1], following[0])).lstrip("/")
        order.append("" if target in (".", "") else target.rstrip("/") + "/")
        assert len(order) <= len(pages), f"the next links go round in circles: {order}"
    assert sorted(order) == sorted(p.url for p in pages), "the next links skip pages"
    return order


def _search_every_task(page: Page, generator: str) -> dict[str, list[str]]:
    """The pages search lists for each query of :data:`TASKS`, in its order (each once), all
    typed into the search box of one loaded home page, the box emptied between them. One load
    for the five: the ten tests took 47.7 s with a page load each, 25.8 s this way (suite
    durations, 2026-12-08), and gave the same lists."""
    page.add_init_script(OPEN_SHADOWS)  # Zensical's search dialog lives in a shadow root
    page.goto("", wait_until="networkidle")
    if generator == "mkdocs":
        page.locator(".md-search__input").click()
        links = "a.md-search-result__link"
    else:
        page.locator(".md-search__button").click()
        links = "a[role=option]"
    root = page.evaluate("() => new URL(document.baseURI).pathname")
    found = {}
    for query in TASKS:
        page.keyboard.type(query)
        found[query] = _results(page, links, root)
        # Emptied as a reader empties it; the next query starts from no results, as on a fresh page.
        page.keyboard.press("ControlOrMeta+A")
        page.keyboard.press("Backspace")
        page.locator(links).first.wait_for(state="detached", timeout=20_000)
    return found


def _results(page: Page, links: str, root: str) -> list[str]:
    """The result pages listed now, once two reads 250 ms apart agree (results change while
    the words are typed), relative to the site's root."""
    page.locator(links).first.wait_for(timeout=20_000)
    previous: list[str] = []
    for _ in range(20):
        page.wait_for_timeout(250)
        hrefs = page.locator(links).evaluate_all("links => links.map(a => a.pathname)")
        if hrefs and hrefs == previous:
            break
        previous = hrefs
    urls = [h[len(root) :] if h.startswith(root) else h for h in previous]
    return list(dict.fromkeys(urls))


# generator -> query -> what search listed: searched once per generator, for the first query's test.
_SEARCHED: dict[str, dict[str, list[str]]] = {}


@pytest.mark.parametrize("query", TASKS, ids=str)
def test_search_puts_the_how_to_page_first(reader, generator: str, query: str) -> None:
    page, _site, _url = reader
    if generator not in _SEARCHED:
        _SEARCHED[generator] = _search_every_task(page, generator)
    found = _SEARCHED[generator][query]
    assert found and found[0] in TASKS[query], f"searching {query!r}: {found[:5]}"


def test_the_contract_page_folds_each_rule(reader) -> None:
    page, _site, _url = reader
    page.goto("reference/contract/")
    rules = len(load_rules(RULES))
    headings = page.locator(".md-content h2[id^='s']").count()
    folded = page.locator(".md-content h2[id^='s'] + p + details:not([open])").count()
    assert headings == folded == rules, f"{rules} rules, {headings} headings, {folded} folded details"
    height = page.evaluate("() => document.documentElement.scrollHeight")
    assert height < 8000, f"the contract page is {height} px tall at 1280 px"
