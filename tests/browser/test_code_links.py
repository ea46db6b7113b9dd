"""The toolnexus names in a program link to the API reference (verified_docs/site/code_links.py),
under MkDocs and under Zensical: clicking ``Answer`` in a code block lands on its entry, whose
signature is what griffe reads from the installed toolnexus, and copying the block still gives
the program's bytes. The API page itself is one of ``site_pages()``, so the per-page tests
(axe, requests beyond the site, links, ids) cover it too."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from tests.browser.pages import ROOT
from verified_docs.render.api_reference import load_package, signature
from verified_docs.scenario.rules import installed_package_dir
from verified_docs.scenario.sections import program_view

PROGRAM = ROOT / "snippets/suspension/approval-gate/approval_gate.py"


def _in_view(page: Page, selector: str) -> bool:
    return page.locator(selector).evaluate(
        "e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; }"
    )


@pytest.mark.parametrize("generator", ["mkdocs", "zensical"])
def test_clicking_answer_in_a_program_lands_on_its_entry(request: pytest.FixtureRequest, generator: str) -> None:
    page: Page = request.getfixturevalue("page" if generator == "mkdocs" else "zensical_page")
    page.goto("suspension/approval-gate/")
    block = page.locator(".vd-program").first
    block.locator("button.vd-fold-toggle").click()  # every line shown, the imports too
    links = block.locator("a.vd-api-link", has_text=re.compile(r"^Answer$"))
    assert links.count() >= 2, "the import line and each use of Answer link to its entry"
    assert block.locator("a.vd-api-link", has_text=re.compile(r"^wait_for$")).count() >= 1, "create_client's wait_for="
    # A local name is never linked: `request` is a parameter, not a toolnexus name.
    assert block.locator("a.vd-api-link", has_text=re.compile(r"^request$")).count() == 0
    text = block.locator("pre > code").text_content() or ""
    assert text.rstrip("\n") == program_view(PROGRAM).text, "the links add no text to the program"

    links.last.click()
    page.wait_for_url(re.compile(r"/reference/api/#api-toolnexus-answer$"))
    entry = "#api-toolnexus-answer"
    page.locator(entry).wait_for()
    page.wait_for_function(
        "s => { const r = document.querySelector(s).getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; }",
        arg=entry,
    )
    assert _in_view(page, entry)
    answer = load_package(installed_package_dir())["Answer"].final_target
    shown = page.locator(f"{entry} + p.vd-api-signature code").inner_text()
    assert shown == signature(answer) and shown.startswith("Answer(id: str, ok: bool")
    assert not page.log.errors and not page.log.blocked, page.log
