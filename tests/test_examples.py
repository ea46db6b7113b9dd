"""Every scenario under snippets/, verified: exit code, evidence and golden output."""

from __future__ import annotations

import pytest

from conftest import Verification, scenario_names


@pytest.mark.parametrize("name", scenario_names(), ids=str)
def test_example(name: str, verification: Verification) -> None:
    verdicts = verification.verdicts[name]
    assert verdicts, f"{name}: no run was verified (no program for any language?)"
    failed = [v for v in verdicts if not v.passed]
    assert not failed, "\n\n".join(v.report() for v in failed)


def test_there_are_examples_to_verify() -> None:
    # An empty snippets/ would make every parametrized test vanish and the suite pass.
    assert len(scenario_names()) >= 3
