"""Copying an example as a reader does, and running the copies: the machinery of ``test_copy``.

:func:`copy_page` clicks the copy button of every code and output block of each
``verified-example`` directive on a loaded page (one ``div.vd-example`` per directive, in
order; a tab per language only where several ran) and checks each download link;
:func:`run_copies` writes the copies over a fresh copy of the example's folder and verifies the
scenario from there against its scripted model. ``read_page`` (the browser conftest) copies in
the load it reads every page in; ``test_zensical`` copies a page of the Zensical build.

Its own module: the conftest and two test modules use it.
"""

from __future__ import annotations

import difflib
import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path

from playwright.sync_api import Locator, Page

from tests.browser.dom import copy_via_button, reveal, tab_label, tab_sets
from tests.browser.pages import ROOT, ExpectedExample, ExpectedTab, expected_examples, site_pages
from tests.browser.pages import Page as SitePage
from verified_docs.reader_commands import try_command
from verified_docs.scenario.load import discover_project
from verified_docs.scenario.records import Program, Scenario
from verified_docs.verify.normalise import normalise
from verified_docs.verify.scenarios import verify_scenario
from verified_docs.verify.verdict import RunVerdict

SCENARIOS = {s.name: s for s in discover_project(ROOT)}
EXAMPLE_PAGES = [p for p in site_pages() if expected_examples(p, SCENARIOS)]


@dataclass
class Copies:
    """What was copied from one page for one scenario: each shown program's text by its path in
    the repository, and each shown output as (run, program path, text, where it was shown)."""

    programs: dict[Path, str] = field(default_factory=dict)
    outputs: list[tuple[str, Path, str, str]] = field(default_factory=list)


def _diff(where: str, what: str, expected: str, got: str, left: str = "expected", right: str = "clipboard") -> str:
    diff = difflib.unified_diff(expected.splitlines(), got.splitlines(), left, right, lineterm="")
    return f"{where}: {what}\n" + "\n".join(f"    {line}" for line in diff)


def _panels(page: Page, index: int, example: ExpectedExample) -> list[Locator] | str:
    """The element holding each language's blocks of the ``index``-th example: the example
    itself for one language (which must have no tab bar), else its tabs, which must be labelled
    with the languages in order. A string says what is wrong."""
    wrapper = page.locator(".vd-example").nth(index)
    labels = tuple(t.label for t in example.tabs)
    sets = wrapper.locator(".tabbed-set")
    if len(labels) == 1:
        if sets.count():
            return f"{example.directive.where}: one language ran, yet the example has a tab bar"
        return [wrapper]
    shown = [s for s in tab_sets(page) if s.labels == labels]
    if not shown:
        return f"{example.directive.where}: no tab set labelled {labels}"
    return [wrapper.locator(".tabbed-block").nth(k) for k in range(len(labels))]


def copy_page(page: Page, site_page: SitePage) -> tuple[list[str], dict[str, Copies]]:
    """Click every copy button of every example on ``site_page``, which ``page`` has loaded
    (the caller loads it: ``read_page`` copies in the load it reads); return the problems (a
    copy that differs from what ran, a missing block or link) and the copies by scenario."""
    examples = expected_examples(site_page, SCENARIOS)
    found = page.locator(".vd-example").count()
    if found != len(examples):
        return [f"{site_page}: expected {len(examples)} examples, found {found}"], {}
    problems: list[str] = []
    copies: dict[str, Copies] = {}
    for index, example in enumerate(examples):
        panels = _panels(page, index, example)
        if isinstance(panels, str):
            problems.append(panels)
            continue
        mine = copies.setdefault(example.directive.scenario, Copies())
        for tab, panel in zip(example.tabs, panels, strict=True):
            reveal(panel)  # an example may sit in a tab of a set that is not about languages
            if len(panels) > 1:
                _choose_tab(page, index, tab.label)
            problems += _copy_tab(page, panel, tab, example, len(panels) > 1, mine)
    return problems, copies


def _choose_tab(page: Page, index: int, label: str) -> None:
    """Click the tab labelled ``label`` of the ``index``-th example's tab set."""
    set_index = (
        page.locator(".vd-example")
        .nth(index)
        .evaluate("w => [...document.querySelectorAll('.tabbed-set')].indexOf(w.querySelector('.tabbed-set'))")
    )
    tab_label(page, set_index, label).click()


def _wanted_blocks(tab: ExpectedTab, in_tabs: bool, scenario: str) -> list[tuple[str, str, str, str]]:
    """The code blocks ``tab`` of an example of ``scenario`` must show, as (title, text, its
    source for messages, kind: ``program``, ``command`` or ``output``): above an output, the
    command that prints it. A block in a tab is titled by its file name alone; an output
    block names its run and program."""
    name = tab.program.name
    wanted = []
    if tab.whole:
        title = name if in_tabs else f"{tab.label} · {name}"
        wanted.append((title, tab.whole.text, f"{tab.program.relative_to(ROOT)} (whole)", "program"))
    if tab.output:
        command = try_command(scenario, str(tab.run))
        wanted.append((f"Run {tab.run} yourself", command, "reader_commands.try_command", "command"))
        wanted.append(
            (
                f"Output of run {tab.run} ({name})",
                tab.output.read_text(encoding="utf-8"),
                str(tab.output.relative_to(ROOT)),
                "output",
            )
        )
    return wanted


def _copy_tab(
    page: Page, panel: Locator, tab: ExpectedTab, example: ExpectedExample, in_tabs: bool, mine: Copies
) -> list[str]:
    """Click the copy button of each block ``tab`` of ``example`` shows in ``panel``, add the
    copies to ``mine``, and return the problems (a block missing, a copy that differs, the
    download)."""
    where = str(example.directive.where)
    wanted = _wanted_blocks(tab, in_tabs, example.directive.scenario)
    blocks = panel.locator(".highlight")
    if blocks.count() != len(wanted):
        return [
            f"{where}: {tab.label}: expected {len(wanted)} code blocks "
            f"({', '.join(w[0] for w in wanted)}), got {blocks.count()}"
        ]
    problems = []
    for title, expected, source, kind in wanted:
        block = panel.locator(f'.highlight:has(> .filename:text-is("{title}"))')
        if block.count() != 1 or block.locator("button[data-clipboard-target]").count() != 1:
            problems.append(f"{where}: {tab.label}: no code block titled '{title}' with a copy button")
            continue
        got = copy_via_button(page, block)
        # Material's copy button trims trailing whitespace; nothing else may differ.
        if got != expected.rstrip():
            problems.append(
                _diff(where, f"'{title}' ({source}): the clipboard differs from what ran", expected.rstrip(), got)
            )
        if kind == "program":
            mine.programs[tab.program] = got
        elif kind == "output":
            mine.outputs.append((tab.run, tab.program, got, f"{where} '{title}'"))
    return problems + _check_download(page, panel, tab.program, where)


def _check_download(page: Page, panel: Locator, program: Path, where: str) -> list[str]:
    """Under the block, one link downloads the whole program: the file that ran, byte for byte."""
    links = panel.locator(f'a[download="{program.name}"]')
    if links.count() != 1:
        return [f"{where}: expected one link to download {program.name}, found {links.count()}"]
    response = page.request.get(links.first.evaluate("a => a.href"))
    if not response.ok:
        return [f"{where}: the link to {program.name} answers HTTP {response.status}"]
    if response.body() != program.read_bytes():
        return [f"{where}: the linked {program.name} is not the file that ran ({program.relative_to(ROOT)})"]
    return []


def _moved(scenario: Scenario, folder: Path) -> Scenario:
    """``scenario`` with its programs and support files read from ``folder`` (a copy of its
    own), its golden outputs still the repository's."""

    def move(p: Program) -> Program:
        return replace(p, path=folder / p.path.relative_to(scenario.folder))

    runs = tuple(replace(r, programs={lang: move(p) for lang, p in r.programs.items()}) for r in scenario.runs)
    return replace(scenario, folder=folder, runs=runs, support=tuple(move(p) for p in scenario.support))


def run_copies(scenario: Scenario, copies: Copies, into: Path) -> list[str]:
    """Write ``copies`` over a fresh copy of ``scenario``'s folder in ``into``, verify it against
    the scenario's scripted model, and return the problems: a run that failed, or an output
    shown on the page that is not what the copied program printed (compared after
    :func:`~verified_docs.verify.normalise.normalise`: ports, keys and ids differ between runs)."""
    folder = into / scenario.folder.name
    shutil.copytree(scenario.folder, folder, ignore=shutil.ignore_patterns("*.out", "__pycache__"))
    for original, text in copies.programs.items():
        (folder / original.relative_to(scenario.folder)).write_text(text + "\n", encoding="utf-8")
    verdicts: list[RunVerdict] = verify_scenario(_moved(scenario, folder), ("python",))
    problems = [f"{scenario.name}: the copied programs fail: {v.report()}" for v in verdicts if not v.passed]
    printed = {(v.run.name, v.program.path.name): v.stdout for v in verdicts}
    for run, program, shown, where in copies.outputs:
        got = printed.get((run, program.name))
        if got is None:
            problems.append(f"{where}: run '{run}' of {program.name} did not run from the copies")
        elif normalise(got).rstrip() != normalise(shown).rstrip():
            problems.append(
                _diff(
                    where,
                    "the page shows an output the copied program does not print",
                    normalise(shown).rstrip(),
                    normalise(got).rstrip(),
                    "shown",
                    "printed",
                )
            )
    return problems
