"""Language tabs: a language chosen in one tab set is chosen in every language tab set,
survives a reload and a move to another page, and leaves other tab sets alone.

Material links tab sets by label text (``content.tabs.link``) and remembers the choice in
localStorage (``__tabs``). The real site has one language so far (Python), so on it no tab set
can switch: the real-site tests check what linking needs (the feature in the built site, the
remembered choice applied on load, every tab set labelled with language names only or with
none) and run the click, reload and move cycle only once a second language exists. The cycle
with two languages runs on ``samples/linked-tabs``, which is built from the real ``mkdocs.yml``
(``INHERIT``), so it fails if the site's configuration stops linking tabs.
"""

from __future__ import annotations

from typing import Callable

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.conftest import Visit, new_context
from tests.browser.dom import checked_labels, stored_tabs, tab_label, tab_sets, wait_for_checked
from tests.browser.pages import LANGUAGE_LABELS, site_pages
from tests.browser.pages import Page as SitePage
from verified_docs.run.languages import LANGUAGES

PAGES = site_pages()
LANGUAGE_ORDER = [language.display for language in LANGUAGES.values()]


def _is_language_set(labels: tuple[str, ...]) -> bool:
    return bool(set(labels) & LANGUAGE_LABELS)


# --- the sample: two languages and a set that is not about languages --------------------------


def test_sample_language_choice_links_sets_survives_reload_and_navigation(
    browser: Browser, linked_tabs_url: str
) -> None:
    context, log = new_context(browser, linked_tabs_url)
    page = context.new_page()
    try:
        page.goto("")
        assert checked_labels(page) == ["Python", "Python", "Inline"]
        tab_label(page, 1, "TypeScript").click()
        chosen = ["TypeScript", "TypeScript", "Inline"]
        assert wait_for_checked(page, chosen) == chosen, (
            "choosing TypeScript in the second set must select it in the first and leave Inline/Durable alone"
        )
        assert stored_tabs(page) == ["TypeScript"], "the choice is remembered in localStorage"
        page.reload()
        assert checked_labels(page) == chosen, "the choice survives a reload"
        page.get_by_role("link", name="the other page", exact=True).click()
        page.wait_for_url("**/other/")
        assert wait_for_checked(page, ["TypeScript", "Inline"]) == ["TypeScript", "Inline"], (
            "the choice follows the reader to another page"
        )
        page.goto("other/")
        assert checked_labels(page) == ["TypeScript", "Inline"], "and to a page loaded afresh"
        tab_label(page, 0, "Python").click()
        assert wait_for_checked(page, ["Python", "Inline"]) == ["Python", "Inline"]
        assert stored_tabs(page) == ["Python", "TypeScript"], "the latest choice comes first"
        assert not log.errors, "\n".join(log.errors)
    finally:
        context.close()


# --- the real site -------------------------------------------------------------------------------


def test_real_site_turns_tab_linking_on(page: Page) -> None:
    """The feature is site-wide, so it is on for the day a second language runs."""
    page.goto(PAGES[0].url)
    features = page.evaluate("() => JSON.parse(document.getElementById('__config').textContent).features")
    assert "content.tabs.link" in features, f"content.tabs.link is not among the built site's features: {features}"
    # Material adds the script that applies the remembered choice on load only with the feature.
    assert '__md_get("__tabs")' in page.content(), "the page lacks Material's script restoring the chosen tab"


def test_real_site_tab_sets_are_language_sets_or_none_of_them(visit: Callable[[SitePage], Visit]) -> None:
    """A set mixing language and other labels would be half linked; a language set must list
    its languages in one order, each once, so every set offers the same labels."""
    problems = []
    for site_page in PAGES:
        for s in visit(site_page).tab_sets:
            language_labels = [label for label in s.labels if label in LANGUAGE_LABELS]
            if not language_labels:
                continue
            if len(language_labels) != len(s.labels):
                problems.append(
                    f"{site_page}: tab set {s.index + 1} mixes languages and other labels: {list(s.labels)}"
                )
            elif sorted(s.labels, key=LANGUAGE_ORDER.index) != list(s.labels) or len(set(s.labels)) != len(s.labels):
                problems.append(
                    f"{site_page}: tab set {s.index + 1}: expected languages once each in the order "
                    f"{LANGUAGE_ORDER}, got {list(s.labels)}"
                )
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def test_real_site_language_choice_links_sets_survives_reload_and_navigation(
    page: Page, visit: Callable[[SitePage], Visit]
) -> None:
    """On the page with the most tab sets offering two languages or more, choose each language
    in its last such set (ending on one that is not the default), then reload, then open the
    next page with such a set."""

    def offering_several(p: SitePage) -> list[int]:
        return [s.index for s in visit(p).tab_sets if _is_language_set(s.labels) and len(s.labels) > 1]

    pages = sorted((p for p in PAGES if offering_several(p)), key=lambda p: -len(offering_several(p)))
    if not pages:
        # One language ran: then no example may carry a tab bar at all (its block's title names
        # the language); the sample site runs the cycle below until a second language runs.
        one_tab_bars = [
            f"{p}: tab set {s.index + 1} {list(s.labels)}"
            for p in PAGES
            for s in visit(p).tab_sets
            if _is_language_set(s.labels)
        ]
        assert not one_tab_bars, "a tab bar offering a single language:\n" + "\n".join(one_tab_bars)
        return
    first = pages[0]
    page.goto(first.url)
    sets = tab_sets(page)
    labels = sets[offering_several(first)[-1]].labels
    state = [s.checked for s in sets]
    for label in [*labels[1:], labels[0], labels[1]]:  # each click changes the selection
        tab_label(page, offering_several(first)[-1], label).click()
        state = [label if _is_language_set(s.labels) and label in s.labels else state[s.index] for s in sets]
        assert wait_for_checked(page, state) == state, f"{first}: choosing {label} in the last language set"
        assert (stored_tabs(page) or [None])[0] == label, f"{first}: the choice of {label} was not remembered"
    chosen = labels[1]
    page.reload()
    assert checked_labels(page) == state, f"{first}: the choice of {chosen} did not survive a reload"
    for second in pages[1:2]:
        page.goto(second.url)
        after = tab_sets(page)
        expected = [
            chosen if _is_language_set(s.labels) and chosen in s.labels else d.checked
            for s, d in zip(after, visit(second).tab_sets, strict=True)
        ]
        assert [s.checked for s in after] == expected, f"{second}: the choice of {chosen} did not follow the reader"


def test_real_site_other_tab_sets_do_not_switch_together(
    browser: Browser, site_url: str, visit: Callable[[SitePage], Visit]
) -> None:
    """Tab sets that are not about languages (inline versus durable, say) must not switch each
    other, on one page or across pages."""
    pages = [p for p in PAGES if any(not _is_language_set(s.labels) for s in visit(p).tab_sets)]
    if not pages:
        pytest.skip("the site has no tab sets other than language tabs")
    problems = []
    for site_page in pages:
        context, _ = new_context(browser, site_url)
        page = context.new_page()
        page.goto(site_page.url)
        for s in tab_sets(page):
            if _is_language_set(s.labels):
                continue
            for label in s.labels:
                if label == tab_sets(page)[s.index].checked:
                    continue
                before = checked_labels(page)
                tab_label(page, s.index, label).click()
                expected = [label if i == s.index else c for i, c in enumerate(before)]
                got = wait_for_checked(page, expected)
                if got != expected:
                    problems.append(
                        f"{site_page}: choosing {label!r} in tab set {s.index + 1} changed others: "
                        f"expected {expected}, got {got}"
                    )
        for other in pages:
            if other == site_page:
                continue  # a set may remember its own reader's choice
            page.goto(other.url)
            defaults = [s.checked for s in visit(other).tab_sets]
            if checked_labels(page) != defaults:
                problems.append(
                    f"{other}: after choices on {site_page}, expected the tab sets at {defaults}, "
                    f"got {checked_labels(page)}"
                )
        context.close()
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
