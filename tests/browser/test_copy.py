"""The copy button of every example puts on the clipboard exactly what ran.

For each page, each ``verified-example`` directive's tab set is found on the page (one per
directive, in order, one tab per language); in each tab the copy button of the code block must
copy the snippet section as ``parse_sections`` reads it from the program file, and the copy
button of the output block the golden output: byte for byte, so no line numbers, prompts or
annotation markers. Under each tab, the "whole program" link must download the program file
that ran, byte for byte.
"""
from __future__ import annotations

import difflib

import pytest
from playwright.sync_api import Locator, Page

from verified_docs.scenario import discover_project

from .dom import copy_via_button, reveal, tab_label, tab_sets
from .pages import LANGUAGE_LABELS, ROOT, ExpectedExample, Page as SitePage, expected_examples, site_pages

SCENARIOS = {s.name: s for s in discover_project(ROOT)}
EXAMPLE_PAGES = [p for p in site_pages() if expected_examples(p, SCENARIOS)]


def _block(tab: Locator, title: str) -> Locator:
    return tab.locator(f'.highlight:has(> .filename:text-is("{title}"))')


def _mismatch(where: str, what: str, expected: str, got: str) -> str:
    diff = difflib.unified_diff(expected.splitlines(), got.splitlines(), "expected", "clipboard", lineterm="")
    return f"{where}: {what}: the clipboard differs from what ran\n" + "\n".join(f"    {line}" for line in diff)


def _check_example(page: Page, index: int, example: ExpectedExample) -> list[str]:
    problems = []
    tabs = page.locator(".tabbed-set").nth(index).locator(":scope > .tabbed-content > .tabbed-block")
    for position, tab in enumerate(example.tabs):
        reveal(page, index)  # an example may sit in a tab of a set that is not about languages
        if tab_sets(page)[index].checked != tab.label:
            tab_label(page, index, tab.label).click()
        block = tabs.nth(position)
        name = tab.program.name
        wanted = []
        if tab.code:
            section = tab.code
            wanted.append((name, section.text, f"{section.path.relative_to(ROOT)}:{section.start_line}#{section.name}"))
        if tab.output:
            output = tab.output.read_text(encoding="utf-8").rstrip("\n")
            wanted.append((f"Output of {name}", output, str(tab.output.relative_to(ROOT))))
        shown = block.locator(".highlight").count()
        if shown != len(wanted):
            problems.append(f"{example.directive.where}: {tab.label} tab: expected {len(wanted)} code blocks "
                            f"({', '.join(w[0] for w in wanted)}), got {shown}")
            continue
        for title, expected, source in wanted:
            code = _block(block, title)
            if code.count() != 1:
                problems.append(f"{example.directive.where}: {tab.label} tab: no code block titled '{title}'")
                continue
            if code.locator("button[data-clipboard-target]").count() != 1:
                problems.append(f"{example.directive.where}: {tab.label} tab: '{title}' has no copy button")
                continue
            got = copy_via_button(page, code)
            if got != expected:
                problems.append(_mismatch(str(example.directive.where), f"{tab.label} tab, '{title}' ({source})",
                                          expected, got))
        problems += _check_whole_program_link(page, block, tab.program, f"{example.directive.where}: {tab.label} tab")
    return problems


def _check_whole_program_link(page: Page, block: Locator, program, where: str) -> list[str]:
    """Under the tab, one link downloads the whole program: the file that ran, byte for byte."""
    links = block.locator(f'a[download="{program.name}"]')
    if links.count() != 1:
        return [f"{where}: expected one link to the whole program {program.name}, found {links.count()}"]
    response = page.request.get(links.first.evaluate("a => a.href"))
    if not response.ok:
        return [f"{where}: the link to {program.name} answers HTTP {response.status}"]
    if response.body() != program.read_bytes():
        return [f"{where}: the linked {program.name} is not the file that ran ({program.relative_to(ROOT)})"]
    return []


@pytest.mark.parametrize("site_page", EXAMPLE_PAGES, ids=str)
def test_copy_button_copies_exactly_what_ran(page: Page, site_page: SitePage) -> None:
    examples = expected_examples(site_page, SCENARIOS)
    page.goto(site_page.url)
    language_sets = [s for s in tab_sets(page) if set(s.labels) & LANGUAGE_LABELS]
    shown = [s.labels for s in language_sets]
    expected = [tuple(t.label for t in e.tabs) for e in examples]
    if shown != expected:
        pytest.fail(f"{site_page}: expected one language tab set per example with these labels, in order:\n"
                    f"    {expected}\ngot:\n    {shown}", pytrace=False)
    problems = [p for s, example in zip(language_sets, examples) for p in _check_example(page, s.index, example)]
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)

