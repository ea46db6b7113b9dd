"""The mutation operators find what a careless author would change, and verification kills it."""

from __future__ import annotations

from pathlib import Path

from conftest import SNIPPETS
from verified_docs.scenario.load import load_scenario
from verified_docs.tools.mutate import OPERATORS, _candidates, _run_mutant, entry_path, first_match


def test_operators_match_the_approval_gate_and_skip_comments() -> None:
    scenario = load_scenario(SNIPPETS / "suspension/approval-gate", SNIPPETS)
    found = {(op.name, line) for op, _path, line, _before, _mutated in _candidates(scenario)}
    source = (SNIPPETS / "suspension/approval-gate/approval_gate.py").read_text().splitlines()

    def line_of(code: str) -> int:
        return next(n for n, text in enumerate(source, start=1) if text.strip() == code)

    assert (
        "answer declined instead of accepted",
        line_of('return Answer(id=request.id, ok=True, data={"approver": "dana"})'),
    ) in found
    assert ("tool ignores ctx.answer", line_of('approver = ctx.answer.data["approver"]')) in found
    for op, path, line, before, _ in _candidates(scenario):
        assert not before.lstrip().startswith("#"), f"{op.name} matched a comment at {path}:{line}"


def test_operators_skip_docstrings_of_modules_classes_and_functions() -> None:
    # question-tool/no_data.py's module docstring said "ok=True": its mutant could never be killed.
    declined = next(op for op in OPERATORS if op.name == "answer declined instead of accepted")
    source = (
        '"""Answered with ok=True."""\n'
        "class Gate:\n"
        '    """Says ok=True\n    on two lines."""\n'
        "    async def ask(self):\n"
        '        """ok=True here too"""\n'
        "        x = 'ok=True in a string that is no docstring'\n"
        "        return Answer(id='a', ok=True)\n"
    )
    m = first_match(declined, source)
    assert m is not None and source.count("\n", 0, m.start()) + 1 == 7
    assert first_match(declined, '"""only ok=True"""\n# ok=True\n') is None
    # A file that does not parse keeps its matches: its mutants fail verification the normal way.
    assert first_match(declined, '"""ok=True"""\ndef broken(:\n') is not None


def test_a_declined_answer_mutant_is_killed() -> None:
    scenario = load_scenario(SNIPPETS / "suspension/approval-gate", SNIPPETS)
    op, path, line, before, mutated = next(c for c in _candidates(scenario) if c[0].name.startswith("answer declined"))
    mutant = _run_mutant(scenario, op, path, line, before, mutated)
    assert mutant.killed, mutant.describe()
    assert "ok=False" in mutant.after


def test_score_leaves_out_named_equivalents_and_refuses_a_stale_entry() -> None:
    from dataclasses import replace

    from verified_docs.tools.mutate import Mutant, score

    scenario = load_scenario(SNIPPETS / "suspension/agents-resume", SNIPPETS)
    names = {(e["operator"], e["file"]) for e in scenario.equivalent_mutants}
    assert ("reply under another key", "new_process.py") in names
    survivor = Mutant(scenario.name, "reply under another key", "new_process.py", 15, "a", "b", killed=False)
    killed = [Mutant(scenario.name, "dropped await", "rerun.py", n, "a", "b", killed=True) for n in range(9)]
    result = score(scenario, [survivor, *killed])
    assert (result.killed, result.counted, result.excused) == (9, 9, (survivor,))
    # An entry whose mutant no longer survives is an error, not a silent excuse.
    assert result.problems == (
        f"{scenario.yaml_path}:1: equivalent_mutants lists 'answer declined instead of accepted' "
        "in new_process.py, but no such mutant survived (it was killed, or the edit no longer "
        "applies): remove the entry",
    )
    # A survivor that is not named counts against the scenario, and is named in the failure.
    other = replace(survivor, operator="tool ignores ctx.answer", file="rerun.py")
    failing = score(scenario, [other, *killed[:3]])
    assert failing.failures()[2].startswith("suspension/agents-resume: 75.0% of mutants killed (3/4), below 90%")
    assert failing.failures()[3] == "  " + other.describe()


def test_a_stored_score_is_found_only_under_the_same_operators(tmp_path) -> None:
    """A mutation entry restored from another commit (CI restores the newest earlier cache) is
    read only when the mutation operators are the ones that made it."""
    scenario = load_scenario(SNIPPETS / "suspension/approval-gate", SNIPPETS)
    here = entry_path(scenario, tmp_path)
    assert here == entry_path(scenario, tmp_path), "the name is stable for the same content"
    assert here.parent == tmp_path and here.suffix == ".json"
    from verified_docs.tools import mutate

    source = Path(mutate.__file__).read_bytes()
    assert entry_path(scenario, tmp_path, source) == here
    assert entry_path(scenario, tmp_path, source + b"\n# another operator\n") != here
