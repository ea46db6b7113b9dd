"""The ledger vouches for a file only as it is now: one decision (``Ledger.doubt``) that the
render stage asks for every example, evidence box, diagram, claim and published program."""

from __future__ import annotations

from pathlib import Path

from verified_docs import ledger as ledger_mod
from verified_docs.ledger import CHANGED, DID_NOT_PASS, NOT_VERIFIED, SCENARIO_CHANGED, Ledger, sha256_file

REL = "snippets/demo/main.py"


def ledger_for(root: Path, *, passed: bool = True, run_passed: bool = True) -> Ledger:
    program, yaml = root / REL, root / "snippets/demo/scenario.yaml"
    program.parent.mkdir(parents=True, exist_ok=True)
    program.write_text("print('hi')\n")
    yaml.write_text("title: demo\n")
    entry = {
        "scenario": "demo",
        "passed": passed,
        "sha256": sha256_file(program),
        "scenario_sha256": sha256_file(yaml),
        "runs": {"first": {"passed": run_passed}},
    }
    return Ledger("0.0.0", "3", {REL: entry})


def test_a_passed_unchanged_file_is_vouched_for(tmp_path: Path) -> None:
    ledger = ledger_for(tmp_path)
    yaml = tmp_path / "snippets/demo/scenario.yaml"
    assert ledger.doubt(REL, tmp_path / REL) is None
    assert ledger.doubt(REL, tmp_path / REL, run="first", scenario_file=yaml) is None


def test_each_reason_in_its_order(tmp_path: Path) -> None:
    program, yaml = tmp_path / REL, tmp_path / "snippets/demo/scenario.yaml"
    assert ledger_for(tmp_path).doubt("snippets/demo/other.py", program) == NOT_VERIFIED
    assert ledger_for(tmp_path, passed=False).doubt(REL, program) == DID_NOT_PASS
    assert ledger_for(tmp_path, run_passed=False).doubt(REL, program) is None
    assert ledger_for(tmp_path, run_passed=False).doubt(REL, program, run="first") == DID_NOT_PASS
    assert ledger_for(tmp_path).doubt(REL, program, run="second") == DID_NOT_PASS
    ledger = ledger_for(tmp_path)
    yaml.write_text("title: edited\n")
    assert ledger.doubt(REL, program) is None
    assert ledger.doubt(REL, program, scenario_file=yaml) == SCENARIO_CHANGED
    program.write_text("print('edited')\n")  # the file comes before its scenario
    assert ledger.doubt(REL, program, scenario_file=yaml) == CHANGED
    program.unlink()
    assert ledger.doubt(REL, program) == CHANGED


def test_the_reasons_read_after_a_path() -> None:
    said = {f"{REL} {reason}" for reason in (NOT_VERIFIED, DID_NOT_PASS, CHANGED)}
    assert said == {f"{REL} was not verified", f"{REL} did not pass", f"{REL} changed after it was verified"}
    assert ledger_mod.SCENARIO_CHANGED == "scenario.yaml changed after it was verified"
