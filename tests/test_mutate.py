"""The mutation operators find what a careless author would change, and verification kills it."""
from __future__ import annotations

from conftest import SNIPPETS
from verified_docs.mutate import _candidates, _run_mutant
from verified_docs.scenario import load_scenario


def test_operators_match_the_approval_gate_and_skip_comments() -> None:
    scenario = load_scenario(SNIPPETS / "suspension/approval-gate", SNIPPETS)
    found = {(op.name, line) for op, _path, line, _before, _mutated in _candidates(scenario)}
    assert ("answer declined instead of accepted", 33) in found
    assert ("tool ignores ctx.answer", 21) in found
    for op, path, line, before, _ in _candidates(scenario):
        assert not before.lstrip().startswith("#"), f"{op.name} matched a comment at {path}:{line}"


def test_a_declined_answer_mutant_is_killed() -> None:
    scenario = load_scenario(SNIPPETS / "suspension/approval-gate", SNIPPETS)
    op, path, line, before, mutated = next(c for c in _candidates(scenario) if c[0].name.startswith("answer declined"))
    mutant = _run_mutant(scenario, op, path, line, before, mutated)
    assert mutant.killed, mutant.describe()
    assert "ok=False" in mutant.after
