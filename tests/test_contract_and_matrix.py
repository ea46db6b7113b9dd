"""Every implemented §10 rule keeps a verified example; the release matrix is current and honest."""
from __future__ import annotations

from conftest import ROOT, Verification
from verified_docs import matrix
from verified_docs.rules import RULES_FILE, load_rules, pages_by_scenario, problems
from verified_docs.scenario import discover_project


def test_every_implemented_rule_has_a_scenario_on_a_page() -> None:
    rules = load_rules(ROOT / RULES_FILE)
    assert [r.id for r in rules] == [f"S{i}" for i in range(1, 19)]
    found = problems(rules, discover_project(ROOT), pages_by_scenario(ROOT / "docs"))
    assert not found, "\n".join(str(p) for p in found)


def test_a_rule_losing_its_last_scenario_is_reported(tmp_path) -> None:
    rules = load_rules(ROOT / RULES_FILE)
    scenarios = [s for s in discover_project(ROOT) if "S12" not in s.rules]
    found = problems(rules, scenarios, pages_by_scenario(ROOT / "docs"))
    assert [p.what for p in found] == [
        "rule S12 (Streaming announces the Request first) is implemented by the Python port but no scenario "
        "on any page demonstrates it"]


def test_release_matrix_covers_every_scenario_and_matches_each_since() -> None:
    m = matrix.load(ROOT / matrix.MATRIX_FILE)
    found = matrix.check_since(m, discover_project(ROOT))
    assert not found, "\n".join(str(p) for p in found) + "\nre-run `nox -s release-matrix`"


def test_pinned_release_column_matches_this_run(verification: Verification) -> None:
    m = matrix.load(ROOT / matrix.MATRIX_FILE)
    pinned = m.releases[-1]
    from importlib.metadata import version

    assert pinned == version("toolnexus"), "the matrix's newest release is not the pinned one"
    this_run = {name: all(v.passed for v in verdicts) for name, verdicts in verification.verdicts.items()}
    recorded = {name: results[pinned] for name, results in m.scenarios.items() if name in this_run}
    assert recorded == this_run, "release matrix is stale for the pinned release; re-run `nox -s release-matrix`"
