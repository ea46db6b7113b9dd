"""Reading and driving Material's page in a browser: tab sets, copy buttons, the clipboard."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

_TAB_SETS = """() => Array.from(document.querySelectorAll('.tabbed-set'), set => {
  const inputs = Array.from(set.querySelectorAll(':scope > input'));
  const label = input => set.querySelector(`label[for="${input.id}"]`).innerText.trim();
  const checked = inputs.find(input => input.checked);
  return {labels: inputs.map(label), checked: checked ? label(checked) : null};
})"""


@dataclass(frozen=True)
class TabSet:
    """One tab set as the reader sees it: its labels in order, and the selected one."""

    index: int
    labels: tuple[str, ...]
    checked: str | None


def tab_sets(page: Page) -> list[TabSet]:
    """Every tab set on the page, in document order."""
    return [TabSet(i, tuple(s["labels"]), s["checked"]) for i, s in enumerate(page.evaluate(_TAB_SETS))]


def tab_label(page: Page, set_index: int, label: str) -> Locator:
    """The label ``label`` of tab set ``set_index`` (what a reader clicks)."""
    tab_set = page.locator(".tabbed-set").nth(set_index)
    return tab_set.locator(":scope > .tabbed-labels > label").filter(has_text=label).first


_REVEAL = """element => {
  const chain = [];
  for (let block = element.closest('.tabbed-block'); block; block = block.parentElement.closest('.tabbed-block')) {
    const outer = block.closest('.tabbed-set');
    const position = Array.from(outer.querySelector(':scope > .tabbed-content').children).indexOf(block);
    chain.unshift(outer.querySelector(`label[for="${outer.querySelectorAll(':scope > input')[position].id}"]`));
  }
  chain.forEach(label => label.click());
  return chain.length;
}"""


def reveal(element: Locator) -> int:
    """Make ``element`` visible by choosing, outermost first, the tab of every tab set it is
    nested in (as a reader clicks them); returns how many tabs that took."""
    return element.evaluate(_REVEAL)


def stored_tabs(page: Page) -> list[str] | None:
    """Material's remembered tab choices (``__tabs`` in localStorage, scoped to the site)."""
    return page.evaluate("() => __md_get('__tabs')")


def copy_via_button(page: Page, block: Locator) -> str:
    """Empty the clipboard, click the copy button of code block ``block``, return the clipboard
    (empty when nothing reached it within 2 s)."""
    page.evaluate("() => navigator.clipboard.writeText('')")
    block.locator("button[data-clipboard-target]").click()  # Playwright hovers first, as a reader does
    try:
        page.wait_for_function("() => navigator.clipboard.readText().then(text => text !== '')", timeout=2000)
    except PlaywrightTimeout:
        return ""
    return page.evaluate("() => navigator.clipboard.readText()")


def checked_labels(page: Page) -> list[str | None]:
    """The selected label of every tab set, in document order."""
    return [s.checked for s in tab_sets(page)]


def wait_for_checked(page: Page, expected: list[str | None], timeout_ms: float = 3000) -> list[str | None]:
    """Wait until the tab sets' selected labels are ``expected`` (Material switches linked sets
    from an event handler); return what they are when that happens or the time runs out."""
    try:
        page.wait_for_function(
            f"expected => ({_TAB_SETS})().map(s => s.checked).join('\\n') === expected.join('\\n')",
            arg=expected,
            timeout=timeout_ms,
        )
    except PlaywrightTimeout:
        pass
    return checked_labels(page)


def wait_for_js(page: Page, expression: str, expected: object, timeout_ms: float = 3000) -> object:
    """Wait until the function ``expression`` returns ``expected``; return its last value."""
    try:
        page.wait_for_function(f"expected => ({expression})() === expected", arg=expected, timeout=timeout_ms)
    except PlaywrightTimeout:
        pass
    return page.evaluate(expression)
