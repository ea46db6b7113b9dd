"""ScopedMemo keeps a value only inside its block: the guard's pages, a cycle's digests and a
ledger write's paths are read anew by the next step."""

from __future__ import annotations

import pytest

from verified_docs.scoped_memo import ScopedMemo


def test_a_value_is_computed_once_inside_a_block_and_every_time_outside_it() -> None:
    memo: ScopedMemo[int] = ScopedMemo()
    calls: list[str] = []

    def compute() -> int:
        calls.append("x")
        return len(calls)

    assert memo.get("k", compute) == 1
    assert memo.get("k", compute) == 2  # outside a block: computed again
    with memo.kept():
        assert memo.get("k", compute) == 3
        assert memo.get("k", compute) == 3
        with memo.kept():  # a nested block shares the outer one's values
            assert memo.get("k", compute) == 3
        assert memo.get("k", compute) == 3  # leaving the inner block keeps them
    assert memo.get("k", compute) == 4  # leaving the outer block drops them


def test_what_compute_raises_is_raised_each_time_and_nothing_is_kept() -> None:
    memo: ScopedMemo[str] = ScopedMemo()
    tries: list[int] = []

    def failing() -> str:
        tries.append(1)
        raise OSError("unreadable")

    with memo.kept():
        for _ in range(2):
            with pytest.raises(OSError, match="unreadable"):
                memo.get("page", failing)
        assert memo.get("page", lambda: "read") == "read"
    assert len(tries) == 2
