"""Every sequence diagram on every page is drawn, from the run this build recorded, and the
site asks no other host for anything (Mermaid included: Material would fetch it from a CDN).

For each ``verified-diagram`` directive the expected diagrams are read from the sources and the
ledger: one per run (and language) that recorded a message, with that many messages. On the
page, each must have become an SVG (Material draws it into a closed shadow root; the test
opens it by asking for ``mode: "open"`` before any script runs) holding exactly that many
message labels and an accessible title, and its steps in words must list as many items.
"""

from __future__ import annotations

from typing import Callable, Sequence

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import Visit, load_drawn
from tests.browser.pages import ROOT, site_pages
from tests.browser.pages import Page as SitePage
from tests.browser.reading import DRAWN
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
    """Load ``site_page`` in ``page`` (whose context serves a built site) and say what
    :func:`drawn_problems` finds, and any error the page logged."""
    load_drawn(page, site_page.url)
    return drawn_problems(page.evaluate(DRAWN), site_page, ledger) + [f"{site_page}: {e}" for e in page.log.errors]


def drawn_problems(drawn: Sequence[dict], site_page: SitePage, ledger: ledger_mod.Ledger) -> list[str]:
    """What is wrong with the diagrams ``site_page`` drew (:data:`~tests.browser.reading.DRAWN`):
    one not drawn, drawn with another number of messages than its run recorded, without an
    accessible title, or drawn while hidden."""
    wanted = expected_counts(site_page, ledger)
    assert wanted, f"{site_page}: its diagram directives ask for no diagram with a message"
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
    return problems


@pytest.mark.parametrize("site_page", DIAGRAM_PAGES, ids=str)
def test_every_diagram_is_drawn_with_its_recorded_messages(
    visit: Callable[[SitePage], Visit], site_page: SitePage, ledger: ledger_mod.Ledger
) -> None:
    seen = visit(site_page)
    problems = drawn_problems(seen.drawn, site_page, ledger) + [f"{site_page}: {e}" for e in seen.errors]
    if problems:
        pytest.fail(f"{site_page}:\n" + "\n".join(f"    {p}" for p in problems), pytrace=False)


@pytest.mark.parametrize("site_page", PAGES, ids=str)
def test_no_page_asks_another_host_for_anything(visit: Callable[[SitePage], Visit], site_page: SitePage) -> None:
    # The test blocks every request that leaves the local site and records it; none may be made.
    seen = visit(site_page)
    assert seen.blocked == (), f"{site_page}: requests to other hosts: {', '.join(seen.blocked)}"
