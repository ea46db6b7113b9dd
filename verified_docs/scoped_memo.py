"""A memo that holds only inside a ``with`` block: for values that stay true while one step
runs (the files a cycle's render stage reads, the built pages the guard reads, the paths one
ledger write resolves), and must be read anew by the next step.

Why not ``functools.lru_cache``: it keeps its values until evicted, so a file changed between
two steps would be answered from the earlier one.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

V = TypeVar("V")


class ScopedMemo(Generic[V]):
    """Values by key, computed once inside a :meth:`kept` block and every time outside one.
    Nested blocks share the outer one's values. Not thread-safe: one block at a time."""

    def __init__(self) -> None:
        self._kept: dict[Hashable, V] | None = None

    @contextmanager
    def kept(self) -> Iterator[None]:
        """Inside the block, :meth:`get` computes each key's value once; on leaving the
        outermost block every value is dropped."""
        if self._kept is not None:
            yield
            return
        self._kept = {}
        try:
            yield
        finally:
            self._kept = None

    def get(self, key: Hashable, compute: Callable[[], V]) -> V:
        """The value of ``key``: ``compute()`` once per :meth:`kept` block (every call outside
        one). What ``compute`` raises is raised, and nothing is kept for the key."""
        if self._kept is None:
            return compute()
        if key not in self._kept:
            self._kept[key] = compute()
        return self._kept[key]
