"""Browser work started early: once ``built_site`` passed (root conftest, ``when_site_built``),
a fixture's work runs in a thread of the session's own while the tests before the browser
tests run; the fixture then takes its result (``conftest.py`` starts it).

Its own module, imported as ``tests.browser.early`` by the browser conftest and the test
modules alike: pytest imports the conftest as ``browser.conftest``, and a test module's
``from tests.browser.conftest import ...`` loads a second copy of it, so a registry kept there
would be two.
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Callable

import pytest

Prepare = Callable[[str, pytest.TempPathFactory], Callable[[], object]]

# The fixture's name -> a function of (the site's URL, the session's temporary folders) that
# returns the work to do.
EARLY: dict[str, Prepare] = {}
STARTED = pytest.StashKey[dict[str, Future]]()


def read_early(fixture: str) -> Callable[[Prepare], Prepare]:
    """Register ``prepare(site_url, tmp_path_factory) -> work`` as the early work of ``fixture``:
    ``prepare`` runs in the main thread once the site is built, ``work()`` in the early thread.
    The fixture takes its result with :func:`early_result`."""

    def register(prepare: Prepare) -> Prepare:
        EARLY[fixture] = prepare
        return prepare

    return register


def early_result(config: pytest.Config, fixture: str) -> object | None:
    """What the early work of ``fixture`` returned (its exception raised here), or None when it
    was not started (the session's tests do not use ``fixture``, or the site failed)."""
    future = config.stash.get(STARTED, {}).get(fixture)
    return None if future is None else future.result()
