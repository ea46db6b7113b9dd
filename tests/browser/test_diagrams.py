"""Every sequence diagram on every page is drawn, from the run this build recorded, and the
site asks no other host for anything (Mermaid included: Material would fetch it from a CDN).

For each ``verified-diagram`` directive the expected diagrams are read from the sources and the
ledger: one per run (and language) that recorded a message, with that many messages. On the
page, each must have become an SVG (Material draws it into a closed shadow root; the test
opens it by asking for ``mode: "open"`` before any script runs) holding exactly that many
message labels and an accessible title, and its steps in words must list as many items.
"""

from __future__ import annotations

from typing import Callable

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import Visit
from tests.browser.pages import ROOT, site_pages
from tests.browser.pages import Page as SitePage
from verified_docs import ledger as ledger_mod
from verified_docs.render.directive import find_directives
from verified_docs.run.languages import LANGUAGES
from verified_docs.scenario.load import discover_project

SCENARIOS = {s.name: s for s in discover_project(ROOT)}
PAGES = site_pages()
DIAGRAM_PAGES = [
    p
    for p in PAGES
    if any(d.kind == "diagram" for d in find_directives(p.source.read_text(encoding="utf-8"), p.source))
]

# Material attaches each drawn diagram to a closed shadow root; open it so the test can read the SVG.
OPEN_SHADOWS = """
const attach = Element.prototype.attachShadow;
Element.prototype.attachShadow = function (init) { return attach.call(this, {...init, mode: "open"}); };
"""

_DRAWN = r"""() => Array.from(document.querySelectorAll('div.verified-diagram'), figure => {
  const host = figure.querySelector(':scope > div.mermaid');
  const svg = host && host.shadowRoot ? host.shadowRoot.querySelector('svg') : null;
  const titleId = svg ? (svg.getAttribute('aria-labelledby') || '').split(' ')[0] : '';
  const title = svg && titleId ? svg.querySelector('#' + CSS.escape(titleId)) : null;
  return {
    declared: Number(figure.dataset.vdMessages),
    // One arrow and one number per message (a label of several lines is several texts).
    drawn: svg ? svg.querySelectorAll('.messageLine0, .messageLine1').length : null,
    numbers: svg ? svg.querySelectorAll('text.sequenceNumber').length : null,
    width: svg ? svg.getBoundingClientRect().width : 0,
    title: title ? title.textContent : null,
    words: figure.querySelectorAll(':scope > details ol > li').length,
  };
})"""


def expected_counts(page: SitePage, ledger: ledger_mod.Ledger) -> list[tuple[str, int]]:
    """(which run, how many messages) of every diagram the page's directives ask for, in order."""
    out = []
    for d in find_directives(page.source.read_text(encoding="utf-8"), page.source):
        if d.kind != "diagram":
            continue
        for run in SCENARIOS[d.scenario].runs:
            if d.run and run.name != d.run:
                continue
            for lang in (x for x in LANGUAGES if x in run.programs):
                rel = run.programs[lang].path.resolve().relative_to(ROOT).as_posix()
                n = len(ledger.story(rel, run.name))
                if n:
                    out.append((f"{d.where}: run {run.name} ({lang})", n))
    return out


@pytest.fixture(scope="module")
def ledger(verification) -> ledger_mod.Ledger:
    return ledger_mod.load(verification.ledger_path)


def test_example_pages_have_diagrams() -> None:
    # Every page showing an example (docs/suspension/* and the durable host) and the suspension
    # home page's overview: the list this test walks cannot silently shrink to nothing.
    names = {str(p) for p in DIAGRAM_PAGES}
    assert {"docs/suspension/index.md", "docs/suspension/answer-later.md", "docs/durable-host.md"} <= names
    assert len(names) >= 18, sorted(names)


def diagram_problems(page: Page, site_page: SitePage, ledger: ledger_mod.Ledger) -> list[str]:
    """Load ``site_page`` in ``page`` (whose context serves a built site) and say what is wrong
    with its diagrams: one not drawn, drawn with another number of messages than its run
    recorded, without an accessible title or drawn while hidden, and any error the page logged."""
    wanted = expected_counts(site_page, ledger)
    assert wanted, f"{site_page}: its diagram directives ask for no diagram with a message"
    page.add_init_script(OPEN_SHADOWS)
    page.goto(site_page.url, wait_until="networkidle")
    # Material draws them one by one once the script is there; wait until none is left as text.
    page.wait_for_function("() => !document.querySelector('div.verified-diagram > pre.mermaid')", timeout=60_000)
    drawn = page.evaluate(_DRAWN)
    if len(drawn) != len(wanted):
        return [
            f"{site_page}: expected {len(wanted)} diagrams ({', '.join(w for w, _ in wanted)}), "
            f"the page has {len(drawn)}"
        ]
    problems = []
    for (which, n), d in zip(wanted, drawn, strict=True):
        if d["drawn"] != n or d["numbers"] != n or d["declared"] != n or d["words"] != n:
            problems.append(
                f"{which}: recorded {n} messages; the figure says {d['declared']}, its SVG draws "
                f"{d['drawn']} arrows numbered {d['numbers']} times, its steps in words list {d['words']}"
            )
        if not d["title"] or f"in {n} messages" not in d["title"]:
            problems.append(f"{which}: the SVG's accessible title is {d['title']!r}")
        if d["width"] < 200:
            problems.append(f"{which}: the SVG is {d['width']}px wide (drawn while hidden?)")
    return problems + [f"{site_page}: {e}" for e in page.log.errors]


@pytest.mark.parametrize("site_page", DIAGRAM_PAGES, ids=str)
def test_every_diagram_is_drawn_with_its_recorded_messages(
    page: Page, site_page: SitePage, ledger: ledger_mod.Ledger
) -> None:
    problems = diagram_problems(page, site_page, ledger)
    if problems:
        pytest.fail(f"{site_page}:\n" + "\n".join(f"    {p}" for p in problems), pytrace=False)


@pytest.mark.parametrize("site_page", PAGES, ids=str)
def test_no_page_asks_another_host_for_anything(visit: Callable[[SitePage], Visit], site_page: SitePage) -> None:
    # The test blocks every request that leaves the local site and records it; none may be made.
    seen = visit(site_page)
    assert seen.blocked == (), f"{site_page}: requests to other hosts: {', '.join(seen.blocked)}"
