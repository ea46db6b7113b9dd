"""Browser work started early: once ``built_site`` passed (root conftest, ``when_site_built``),
every page is read for ``visit`` in a thread of the session's own while the tests before the
browser tests run; ``visit`` then takes the result (the browser conftest starts it).

Its own module, imported as ``tests.browser.early`` by the browser conftest and the test
modules alike: pytest imports the conftest as ``browser.conftest``, and a test module's
``from tests.browser.conftest import ...`` loads a second copy of it, so a stash key kept there
would be two.
"""

from __future__ import annotations

from concurrent.futures import Future

import pytest

STARTED = pytest.StashKey[dict[str, Future]]()


def early_result(config: pytest.Config, fixture: str) -> object | None:
    """What the early work of ``fixture`` returned (its exception raised here), or None when it
    was not started (the session's tests do not use ``fixture``, or the site failed)."""
    future = config.stash.get(STARTED, {}).get(fixture)
    return None if future is None else future.result()
