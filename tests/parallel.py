"""The suite on several cores (pytest-xdist, ``nox -s tests`` passes ``-n auto``): which tests
share a worker, in what order the units go out, and the session's expensive builds made once
for every worker.

Units of work (:func:`group_of`): a test module's tests go to one worker together, as with
``--dist loadscope``, except three groups that must each stay on one worker whatever module
they are in:

- ``first``: the tests marked ``first`` (timing-sensitive whole builds). They go out first, and
  every other worker waits for them to end before its first test (:func:`wait_for_first`), so
  they still run alone on the machine.
- ``fences``: every fence pytest-markdown-docs collected, and the tests marked ``guard``. The
  guard checks that every block of the site ran *in this process* (the fence plugin's
  ``executed_fences``), so it needs the fences' worker, after them. The unit goes out second,
  so that it is a worker's first unit after ``first`` and its ``asyncio.run()`` fences run
  before any browser test of that worker starts Playwright's event loop in the main thread.
  (If a worker crashes, xdist sends the rest of its units to another worker at the end of
  the queue: fences may then come after Playwright there, and fail loudly.)
- ``page <url>``: the browser tests of one page that read it through ``visit`` or copy its
  examples through ``copied_and_run``: the page is loaded once, on the worker that runs them.
  Each page is a unit of its own, so the pages spread over the workers; a whole-site test
  that asks ``visit`` for every page takes what the other workers read (the browser
  conftest shares each reading through :func:`once_in`).

Why our own scheduler and not ``--dist loadgroup`` with ``xdist_group`` marks: pytest-xdist
3.8.0 (the newest release) gives a marked item its group by setting ``item._nodeid``, which
pytest 9.2's ``Node.nodeid`` no longer reads, so the marks are silently ignored
(pytest-dev/pytest-xdist#1386, open). The scheduler below subclasses xdist's own
``LoadScopeScheduling`` and changes only how a test id maps to its unit: the controller sees
test ids alone, so the workers write each id's group to a file when they collect
(:func:`record_groups`), and the controller reads it when it schedules.

The hooks at the end make this module a pytest plugin (the conftest registers it); outside
xdist they do nothing.

Session fixtures computed once for every worker (:func:`computed_once`): the first worker that
needs one computes it under a file lock in the folder all workers share and pickles it there;
the others wait for the lock and load it.
"""

from __future__ import annotations

import json
import os
import pickle
import time
from pathlib import Path
from typing import Callable, TypeVar

import pytest
from filelock import FileLock
from xdist.scheduler import LoadScopeScheduling

GROUPS_FILE = "xdist-groups.json"
FIRST_ENDED = "first-tests-ended"
# The first tests take about 65 s alone; a worker waits this long for them, then goes on.
FIRST_WAIT_S = 900.0
FIRST_ITEMS = pytest.StashKey[frozenset[str]]()
T = TypeVar("T")


def in_a_worker(config: pytest.Config) -> bool:
    """True in a pytest-xdist worker process (xdist gives its config ``workerinput``; not the
    environment, which a pytest started by a test inherits)."""
    return hasattr(config, "workerinput")


def shared_folder(config: pytest.Config) -> Path:
    """The folder the controller and every worker of this session see: the controller's
    ``basetemp`` (each worker's is a folder in it), removed when the controller's session ends."""
    basetemp = config._tmp_path_factory.getbasetemp()  # type: ignore[attr-defined]  # pytest's own
    return basetemp.parent if in_a_worker(config) else basetemp


# The fixtures that read one page of the site for the test's ``site_page`` parameter.
PAGE_FIXTURES = frozenset({"visit", "copied_and_run"})


def group_of(item: pytest.Item) -> str:
    """The named unit ``item`` belongs to (``first``, ``fences`` or ``page <url>``; see the
    module docstring), or "" when its module is its unit."""
    if item.get_closest_marker("first") is not None:
        return "first"
    if getattr(item, "test_definition", None) is not None or item.get_closest_marker("guard") is not None:
        return "fences"
    callspec = getattr(item, "callspec", None)
    if callspec is not None and "site_page" in callspec.params and PAGE_FIXTURES & set(item.fixturenames):
        return f"page {callspec.params['site_page']}"
    return ""


def _rank(item: pytest.Item) -> int:
    group = group_of(item)
    if group in ("first", "fences"):
        return {"first": 0, "fences": 1}[group]
    if group:
        return 2
    return 3 if "tests/browser/" in item.nodeid else 4


def order_by_group(items: list[pytest.Item]) -> None:
    """Sort ``items`` in place so the units go out in the order the module docstring gives:
    ``first``, ``fences``, the pages, the other browser modules (the longest), the rest.
    Stable: within a unit the serial order holds, so the guard still follows the fences."""
    items.sort(key=_rank)


def record_groups(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a worker: note which collected items are marked ``first`` (:func:`wait_for_first`),
    and write every named group's test ids to :data:`GROUPS_FILE` in the shared folder for
    :class:`GroupScheduling` (atomically; every worker writes the same content)."""
    config.stash[FIRST_ITEMS] = frozenset(i.nodeid for i in items if group_of(i) == "first")
    groups = {i.nodeid: g for i in items if (g := group_of(i))}
    target = shared_folder(config) / GROUPS_FILE
    partial = target.with_name(f"{target.name}.{os.getpid()}")
    partial.write_text(json.dumps(groups), encoding="utf-8")
    partial.replace(target)


class GroupScheduling(LoadScopeScheduling):
    """xdist's ``--dist loadscope`` with the units of :func:`group_of`, sent in collection
    order (the workers sorted it with :func:`order_by_group`), never reordered by size."""

    def schedule(self) -> None:
        if self.collection is None:
            self.groups: dict[str, str] = json.loads(
                (shared_folder(self.config) / GROUPS_FILE).read_text(encoding="utf-8")
            )
            # Largest unit first would send the fences before ``first`` and mix their order.
            self.config.option.loadscopereorder = False
        super().schedule()

    def _split_scope(self, nodeid: str) -> str:
        return self.groups.get(nodeid) or nodeid.split("::", 1)[0]


def wait_for_first(item: pytest.Item) -> None:
    """Before a test that is not marked ``first``, while some are collected and have not ended
    (on whichever worker got them): wait for them, at most :data:`FIRST_WAIT_S` seconds."""
    first = item.config.stash.get(FIRST_ITEMS, frozenset())
    if not first or item.nodeid in first:
        return
    ended = shared_folder(item.config) / FIRST_ENDED
    deadline = time.monotonic() + FIRST_WAIT_S
    while not ended.exists() and time.monotonic() < deadline:
        time.sleep(0.2)


def note_first_ended(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """After a test marked ``first`` that no other ``first`` test follows on this worker: tell
    the waiting workers (the ``first`` unit goes to one worker whole, in collection order).
    If that worker crashes mid-test, the others wait out :data:`FIRST_WAIT_S`."""
    first = item.config.stash.get(FIRST_ITEMS, frozenset())
    if item.nodeid in first and (nextitem is None or nextitem.nodeid not in first):
        (shared_folder(item.config) / FIRST_ENDED).touch()


def computed_once(config: pytest.Config, name: str, compute: Callable[[], T]) -> T:
    """``compute()`` once for the whole session, whichever worker asks first: the others wait
    for it and get a copy (pickled in the shared folder as ``name.pickle``). Outside xdist
    simply ``compute()``. Its result must be picklable and name files every worker can read
    (folders made by ``tmp_path_factory`` are: they live in the shared folder); an exception
    is not shared, the next worker computes again."""
    if not in_a_worker(config):
        return compute()
    return once_in(shared_folder(config), name, compute)


def once_in(folder: Path, name: str, compute: Callable[[], T]) -> T:
    """``compute()`` once for every process that calls this with the same ``folder`` and
    ``name``: the first computes under the file lock ``folder/name.lock`` and writes the
    pickled result atomically to ``folder/name.pickle``; the others wait for the lock and
    load it. Raises what ``compute`` raises (nothing is written then)."""
    done = folder / f"{name}.pickle"
    with FileLock(str(folder / f"{name}.lock")):
        if done.exists():
            return pickle.loads(done.read_bytes())
        value = compute()
        partial = done.with_name(f"{done.name}.{os.getpid()}")
        partial.write_bytes(pickle.dumps(value))
        partial.replace(done)
        return value


# The plugin's hooks.


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> GroupScheduling:
    return GroupScheduling(config, log)


# trylast: after the conftest's serial order, which this sort keeps within each rank.
@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if in_a_worker(config):
        order_by_group(items)


# tryfirst: a worker reports its collection to the controller in xdist's own
# collection_finish, and the controller's scheduler then reads the file written here.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    if in_a_worker(session.config):
        record_groups(session.config, session.items)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    wait_for_first(item)


# A wrapper with finally: the waiting workers hear of the end even when a teardown raised.
@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    try:
        return (yield)
    finally:
        note_first_ended(item, nextitem)
