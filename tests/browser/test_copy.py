"""What a reader copies from an example is a whole program that runs and prints what the page shows.

For each page, each ``verified-example`` directive's block is found on the page (one
``div.vd-example`` per directive, in order; a tab per language only where several ran). The
copy button of each code block must copy the whole program as the page shows it (the file
without its section markers, however the block is folded), and the copy button of the output
block the golden output. Then the copies are written over a fresh copy of the example's folder
(its support files and the programs the page does not show come from the repository, as a
reader downloads them), and the scenario is verified from there against its scripted model: every
run must pass, and each output shown on the page must be what the copied program printed.
Under each block, the download link must give the file that ran, byte for byte.
The copies are taken in the load ``visit`` reads the page in (``read_page``, with
:func:`~tests.browser.copying.copy_page`); a page's copies are verified here, each scenario's
in a thread of its own, when its test first asks.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import Visit
from tests.browser.copying import EXAMPLE_PAGES, SCENARIOS, Copies, run_copies
from tests.browser.dom import copy_via_button
from tests.browser.pages import Page as SitePage
from tests.browser.pages import expected_examples

EDITED_PAGE = next(p for p in EXAMPLE_PAGES if p.url == "suspension/answer-later/")


class CopiedPerPage(dict):
    """A page's problems, asked by page: what ``visit`` found while copying it, then its copies
    verified against each scenario's scripted model (:func:`~tests.browser.copying.run_copies`),
    one thread per scenario, as :func:`~verified_docs.verify.scenarios.verify_all` verifies
    scenarios (each run has its own mock model, port and folder). Done when a test first asks
    for the page; KeyError for a page without examples."""

    def __init__(self, visit: Callable[[SitePage], Visit], tmp_path_factory: pytest.TempPathFactory) -> None:
        super().__init__()
        self.visit, self.tmp_path_factory = visit, tmp_path_factory

    def __missing__(self, site_page: SitePage) -> list[str]:
        copied = self.visit(site_page).copied
        if copied is None:
            raise KeyError(f"{site_page} has no examples to copy")
        problems, copies = copied
        # pytest's temporary folders are made here, in the calling thread, not in the pool's.
        folder = self.tmp_path_factory.mktemp(site_page.slug)
        with ThreadPoolExecutor(max_workers=max(1, len(copies)), thread_name_prefix="copies") as pool:
            runs = [
                pool.submit(run_copies, SCENARIOS[name], done, folder / name.replace("/", "-"))
                for name, done in copies.items()
            ]
            self[site_page] = [*problems, *(x for r in runs for x in r.result())]
        return self[site_page]


@pytest.fixture(scope="module")
def copied_and_run(
    visit: Callable[[SitePage], Visit], tmp_path_factory: pytest.TempPathFactory
) -> dict[SitePage, list[str]]:
    """Every example page's problems (:class:`CopiedPerPage`): under xdist the pages spread over
    the workers, a page's tests being one unit of work (tests/parallel.py)."""
    return CopiedPerPage(visit, tmp_path_factory)


@pytest.mark.parametrize("site_page", EXAMPLE_PAGES, ids=str)
def test_copied_examples_run_and_print_what_the_page_shows(
    copied_and_run: dict[SitePage, list[str]], site_page: SitePage
) -> None:
    problems = copied_and_run[site_page]
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def test_an_output_edited_on_the_page_is_caught(page: Page, tmp_path: Path) -> None:
    """The check above can fail: edit one shown output in the page (as a stale page would show
    it) and the copied program's own output no longer matches."""
    page.goto(EDITED_PAGE.url)
    page.evaluate("""() => {
        const block = [...document.querySelectorAll('.vd-example .highlight')]
            .find(b => b.querySelector('.filename')?.textContent.startsWith('Output of'));
        const line = block.querySelector('code > span');
        line.textContent = 'an edited line\\n';
    }""")
    examples = expected_examples(EDITED_PAGE, SCENARIOS)
    scenario = SCENARIOS[examples[0].directive.scenario]
    # Copy without reloading the page: read the edited output the way copy_page does.
    edited = page.locator('.vd-example .highlight:has(> .filename:has-text("Output of"))').first
    shown = copy_via_button(page, edited)
    tab = next(t for e in examples for t in e.tabs if t.output)
    copies = Copies(outputs=[(tab.run, tab.program, shown, "edited")])
    problems = run_copies(scenario, copies, tmp_path)
    assert len(problems) == 1, problems
    assert problems[0].startswith("edited: the page shows an output the copied program does not print\n")
    assert "-an edited line" in problems[0]
