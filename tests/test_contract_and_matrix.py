"""Every §10 rule says where it comes from and what the Python port does, each departure has a
scenario asserting it, and the release matrix is current, complete and honest."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from importlib.metadata import version
from pathlib import Path

import pytest

from conftest import ROOT, Verification
from verified_docs.errors import SourceError, display_path
from verified_docs.release import matrix
from verified_docs.render import release_matrix
from verified_docs.render.anchors import matrix_anchor
from verified_docs.render.contract import render_contract
from verified_docs.render.directive import find_directives, pages_by_scenario
from verified_docs.render.matrix_table import render_matrix
from verified_docs.scenario.digest import content_digest
from verified_docs.scenario.load import discover_project
from verified_docs.scenario.rules import (
    RULES_FILE,
    STATUSES,
    code_problems,
    coverage,
    installed_package_dir,
    load_rules,
    problems,
)

DOCS = """documents:
  spec: {name: SPEC.md at abc1234, url: "https://example.org/SPEC.md"}
rules:
"""


def _rules_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "spec-10.yaml"
    path.write_text(DOCS + body, encoding="utf-8")
    return path


def _scenario(name: str):
    return next(s for s in discover_project(ROOT) if s.name == name)


# --- the rules file ---------------------------------------------------------------------------


def test_every_implemented_rule_has_a_scenario_on_a_page() -> None:
    rules = load_rules(ROOT / RULES_FILE)
    assert [r.id for r in rules] == [f"S{i}" for i in range(1, 19)]
    found = problems(rules, discover_project(ROOT), pages_by_scenario(ROOT / "docs"))
    assert not found, "\n".join(str(p) for p in found)


def test_a_rule_losing_its_last_scenario_is_reported() -> None:
    rules = load_rules(ROOT / RULES_FILE)
    # Every scenario stops citing S12 (one that also asserts another rule's departure stays, so
    # that departure is still asserted): only S12 has lost its scenarios.
    scenarios = [dataclasses.replace(s, rules=tuple(r for r in s.rules if r != "S12")) for s in discover_project(ROOT)]
    found = problems(rules, scenarios, pages_by_scenario(ROOT / "docs"))
    assert [p.what for p in found] == [
        "rule S12 (Streaming announces the Request first) is implemented by the Python port but no scenario "
        "on any page demonstrates it"
    ]


def test_every_rule_names_a_source_and_a_python_status_and_each_departure_a_scenario() -> None:
    rules = load_rules(ROOT / RULES_FILE)
    known = {s.name: s for s in discover_project(ROOT)}
    for rule in rules:
        assert rule.sources, rule.id
        assert rule.python in STATUSES, rule.id
        if rule.python == "departs":
            assert rule.asserted_by and all(rule.id in known[n].rules for n in rule.asserted_by), rule.id
    by_status = {s: sorted(r.id for r in rules if r.python == s) for s in STATUSES}
    # What reading the installed 0.21.0 source and running the scenarios found.
    assert by_status == {
        "follows": ["S1", "S12", "S13", "S15", "S18", "S2", "S3", "S4", "S5", "S7", "S8"],
        "departs": ["S10", "S11", "S14", "S6", "S9"],
        "lacks": ["S16", "S17"],
    }


def test_s13_is_attributed_to_the_newer_spec_text_the_older_one_and_measurement() -> None:
    # Python follows the newer text's "a replay is not a resume"; loop rule 2's older wording is
    # cited beside it, and the behaviour is measured.
    s13 = next(r for r in load_rules(ROOT / RULES_FILE) if r.id == "S13")
    docs = [s.document.id for s in s13.sources]
    assert docs[:2] == ["spec", "spec-0.17"] and "measured" in docs
    assert s13.python == "follows"
    assert "Measured on 0.21.0 under three scripted model behaviours:" in s13.text


def test_no_rule_text_claims_a_release_as_since() -> None:
    # Availability comes from the release matrix, never from a rule's prose.
    for rule in load_rules(ROOT / RULES_FILE):
        assert not re.search(r"\bsince \d+\.\d+", rule.text + (rule.note or "")), rule.id


def test_every_cited_source_line_holds_its_text() -> None:
    found = code_problems(load_rules(ROOT / RULES_FILE), installed_package_dir())
    assert not found, "\n".join(str(p) for p in found)


def test_a_rule_without_a_source_fails_at_its_line(tmp_path) -> None:
    path = _rules_file(
        tmp_path,
        """  - id: S1
    title: t
    rule: r
    sources: []
    python: follows
    code:
      - {at: "toolnexus/types.py:1", has: "x"}
""",
    )
    with pytest.raises(SourceError) as e:
        load_rules(path)
    assert str(e.value) == f"{path}:7: rule S1: sources: expected at least one source, got none"


def test_a_rule_without_a_python_status_fails_at_its_line(tmp_path) -> None:
    path = _rules_file(
        tmp_path,
        """  - id: S1
    title: t
    rule: r
    sources:
      - {doc: spec, where: here}
""",
    )
    with pytest.raises(SourceError) as e:
        load_rules(path)
    assert str(e.value) == (
        f"{path}:4: a rule needs id, title, rule, sources, python (and may have absent, "
        "asserted_by, code, elsewhere, note); got ['id', 'rule', 'sources', 'title']"
    )


def test_a_departure_without_scenario_an_unknown_document_and_a_long_quote_fail(tmp_path) -> None:
    path = _rules_file(
        tmp_path,
        """  - id: S2
    title: t
    rule: r
    sources:
      - {doc: nope, where: here}
      - {doc: spec, where: here, quote: "one two three four five six seven eight nine ten eleven twelve thirteen"}
    python: departs
    code:
      - {at: "toolnexus/client.py:10", has: "x"}
    note: how it differs
""",
    )
    with pytest.raises(SourceError) as e:
        load_rules(path)
    assert str(e.value).splitlines() == [
        f"{path}:8: rule S2: unknown document 'nope'",
        "    documents: spec",
        f"{path}:9: rule S2: a quote is a short clause: expected at most 12 words, got 13",
        f"{path}:10: rule S2: python: departs needs asserted_by: the scenarios that assert the departure",
    ]


def test_a_departure_naming_a_missing_scenario_is_reported(tmp_path) -> None:
    path = _rules_file(
        tmp_path,
        """  - id: S11
    title: t
    rule: r
    sources:
      - {doc: spec, where: here}
    python: departs
    code:
      - {at: "toolnexus/client.py:10", has: "x"}
    note: how it differs
    asserted_by: [suspension/no-such-scenario, suspension/approval-gate]
""",
    )
    scenarios = discover_project(ROOT)
    found = problems(load_rules(path), scenarios, pages_by_scenario(ROOT / "docs"))
    assert [str(p).splitlines()[0] for p in found if p.what.startswith("rule S11")] == [
        f"{path}:4: rule S11: asserted_by names suspension/no-such-scenario, which is no scenario",
        f"{path}:4: rule S11: asserted_by names suspension/approval-gate, whose rules: ['S1', 'S6', 'S7'] do not "
        "cite S11",
    ]


def test_a_drifted_citation_and_a_name_said_absent_fail(tmp_path) -> None:
    package = tmp_path / "site"
    (package / "toolnexus").mkdir(parents=True)
    (package / "toolnexus" / "types.py").write_text(
        "class Request:\n\ndef relay_tool(name):\n    pass\n", encoding="utf-8"
    )
    path = _rules_file(
        tmp_path,
        """  - id: S1
    title: t
    rule: r
    sources:
      - {doc: spec, where: here}
    python: follows
    code:
      - {at: "toolnexus/types.py:1", has: "class Answer:"}
  - id: S16
    title: t
    rule: r
    sources:
      - {doc: spec, where: here}
    python: lacks
    note: not there
    absent: [relay_tool, run_with_answer]
""",
    )
    found = code_problems(load_rules(path), package)
    assert [str(p) for p in found] == [
        f"{path}:11: rule S1: toolnexus/types.py:1: expected a line holding 'class Answer:', got 'class Request:'",
        f"{path}:12: rule S16: says the Python port lacks relay_tool, but toolnexus/types.py:3 defines it",
    ]


def test_the_contract_page_shows_source_and_status_for_every_rule() -> None:
    rules = load_rules(ROOT / RULES_FILE)
    page = ROOT / "docs" / "reference" / "contract.md"
    directive = find_directives(page.read_text(encoding="utf-8"), page)[0]
    out = render_contract(
        directive,
        "reference/contract.md",
        coverage(rules, discover_project(ROOT), pages_by_scenario(ROOT / "docs")),
        {},
    )
    for rule in rules:
        section = out.split(f"## {rule.id} {rule.title} {{ #{rule.id.lower()} }}\n", 1)[1].split("\n## ", 1)[0]
        assert "- **Source:** " in section and f"- **Python port: {rule.python}.** " in section, rule.id
    s11 = out.split("## S11 ", 1)[1].split("\n## ", 1)[0]
    assert (
        "- **Asserted by:** [Several suspensions in one turn](../suspension/several-suspensions.md), "
        "[Streaming a suspension, with and without a wait_for](../suspension/push-the-link-first.md).\n"
    ) in s11
    assert "`toolnexus/client.py:1654`" in s11


def test_the_contract_page_escapes_angle_brackets_and_names_each_rules_kind_of_source() -> None:
    rules = load_rules(ROOT / RULES_FILE)
    page = ROOT / "docs" / "reference" / "contract.md"
    directive = find_directives(page.read_text(encoding="utf-8"), page)[0]
    out = render_contract(
        directive,
        "reference/contract.md",
        coverage(rules, discover_project(ROOT), pages_by_scenario(ROOT / "docs")),
        {},
    )
    s7 = out.split("## S7 ", 1)[1].split("\n## ", 1)[0]
    assert "<prompt>" in next(r.text for r in rules if r.id == "S7")
    assert "unresolved: &lt;prompt&gt;" in s7 and "<prompt>" not in s7
    rows = {line.split("](#", 1)[1].split(")", 1)[0]: line for line in out.splitlines() if line.startswith("| [S")}
    assert "| SPEC §10 | **departs** |" in rows["s9"]
    assert "| SPEC §10, ADR-0026 (Proposed), measured here only | follows |" in rows["s13"]
    assert "| ADR-0026 (Proposed), changelog, measured here only | follows |" in rows["s18"]


def test_code_spans_in_rule_text_are_left_as_written() -> None:
    from verified_docs.render.contract import plain

    assert plain("error `unresolved: <prompt>` or unresolved: <prompt> & more") == (
        "error `unresolved: <prompt>` or unresolved: &lt;prompt&gt; &amp; more"
    )


# --- the release matrix -----------------------------------------------------------------------


def test_release_matrix_covers_every_listed_release_and_the_pin() -> None:
    m = release_matrix.load(ROOT / release_matrix.MATRIX_FILE)
    expected = matrix.expected_releases(ROOT)
    assert expected[0] == "0.6.0" and expected[-1] == version("toolnexus")
    assert "0.16.0" in expected
    assert not matrix.coverage_problems(m, expected, ROOT / release_matrix.MATRIX_FILE), (
        "re-run `nox -s release-matrix`"
    )


def test_release_matrix_has_a_row_for_every_scenario_measured_on_its_present_files() -> None:
    # What keeps the published matrix current: `nox -s docs` only warns (see render_matrix).
    m = release_matrix.load(ROOT / release_matrix.MATRIX_FILE)
    found = matrix.row_problems(m, discover_project(ROOT))
    assert not found, "\n".join(str(p) for p in found)


def test_pinned_release_column_matches_this_run(verification: Verification) -> None:
    m = release_matrix.load(ROOT / release_matrix.MATRIX_FILE)
    pinned = m.releases[-1]
    assert pinned == version("toolnexus"), "the matrix's newest release is not the pinned one"
    this_run = {name: all(v.passed for v in verdicts) for name, verdicts in verification.verdicts.items()}
    recorded = {name: results[pinned] for name, results in m.scenarios.items() if name in this_run}
    assert recorded == this_run, "release matrix is stale for the pinned release; re-run `nox -s release-matrix`"


def _toy(results: dict[str, bool]) -> release_matrix.Matrix:
    return release_matrix.Matrix(tuple(results), {"suspension/run-statuses": results})


def _measured(scenario, results: dict[str, bool]) -> release_matrix.Matrix:
    return release_matrix.Matrix(
        tuple(results), {scenario.name: results}, {}, {scenario.name: content_digest(scenario)}
    )


def test_a_scenario_without_a_current_row_is_a_problem_naming_the_one_command(tmp_path) -> None:
    original = _scenario("suspension/run-statuses")
    copy = tmp_path / "run-statuses"
    shutil.copytree(original.folder, copy)
    scenario = dataclasses.replace(original, folder=copy)
    m = _measured(scenario, {"0.6.0": False, "0.7.0": True})
    assert matrix.row_problems(m, [scenario]) == []
    assert m.measured_since(scenario.name) == "0.7.0"
    fix = "run `nox -s release-matrix -- --only suspension/run-statuses` (it measures this scenario on every release)"
    # Edited since it was measured: the row no longer counts, on the pages either.
    program = next(copy.glob("*.py"))
    program.write_text(program.read_text(encoding="utf-8") + "# one more line\n", encoding="utf-8")
    [changed] = matrix.row_problems(m, [scenario])
    assert str(changed) == (
        f"{display_path(scenario.yaml_path)}: suspension/run-statuses changed since the release matrix measured it"
        f"\n    {fix}"
    )
    assert m.current({scenario.name: scenario}).scenarios == {}
    # Never measured.
    empty = release_matrix.Matrix(("0.6.0", "0.7.0"), {})
    [missing] = matrix.row_problems(empty, [scenario])
    assert missing.what == "suspension/run-statuses is not in the release matrix (rules/release-matrix.json)"
    assert missing.details == (fix,)
    # Measured, passing nowhere.
    [never] = matrix.row_problems(_measured(original, {"0.6.0": False, "0.7.0": False}), [original])
    assert never.what == "suspension/run-statuses passes on no release measured (0.6.0 to 0.7.0)"


def test_one_scenario_measured_alone_replaces_only_its_row() -> None:
    a, b = _scenario("suspension/run-statuses"), _scenario("suspension/approval-gate")
    base = release_matrix.Matrix(
        ("0.6.0", "0.7.0"),
        {a.name: {"0.6.0": True, "0.7.0": True}, b.name: {"0.6.0": True, "0.7.0": True}},
        {"0.6.0": {"mcp": "1.0"}},
        {a.name: "old", b.name: content_digest(b)},
    )
    merged = matrix.merge(base, _measured(a, {"0.6.0": False, "0.7.0": True}))
    assert merged.scenarios == {a.name: {"0.6.0": False, "0.7.0": True}, b.name: {"0.6.0": True, "0.7.0": True}}
    assert merged.digests == {a.name: content_digest(a), b.name: content_digest(b)}
    assert merged.dependencies == base.dependencies
    assert matrix.row_problems(merged, [a, b]) == []
    with pytest.raises(ValueError, match="run the whole matrix: nox -s release-matrix"):
        matrix.merge(base, _measured(a, {"0.7.0": True}))


def test_reports_measuring_one_scenario_on_different_files_do_not_combine() -> None:
    reports = [
        {"toolnexus": "0.6.0", "scenarios": {"suspension/x": True}, "digests": {"suspension/x": "one"}},
        {"toolnexus": "0.7.0", "scenarios": {"suspension/x": True}, "digests": {"suspension/x": "two"}},
    ]
    with pytest.raises(ValueError, match="suspension/x changed while the matrix measured it"):
        matrix.combine(reports)
    reports[1]["digests"] = {"suspension/x": "one"}
    assert matrix.combine(reports).digests == {"suspension/x": "one"}


def test_a_scenario_failing_again_after_its_first_pass_is_shown_not_hidden() -> None:
    m = _toy({"0.6.0": False, "0.7.0": True, "0.8.0": False, "0.9.0": False, "0.10.0": True})
    name = "suspension/run-statuses"
    assert m.measured_since(name) == "0.7.0"
    assert m.fails_after_since(name) == ("0.8.0", "0.9.0")
    assert m.since_sentence(name) == (
        "Passes from toolnexus 0.7.0 (the first release on which it passes) and on later releases too, except "
        "0.8.0–0.9.0, where it fails; measured on 5 releases, 0.6.0 to 0.10.0."
    )
    # Failing again after the first pass is not a problem: the gap is shown on the page instead.
    m = dataclasses.replace(m, digests={name: content_digest(_scenario(name))})
    assert matrix.row_problems(m, [_scenario(name)]) == []
    page = find_directives("<!-- verified-matrix -->\n", Path("availability.md"))[0]
    out = render_matrix(page, "reference/availability.md", m, {name: _scenario(name)}, {})
    row = next(line for line in out.splitlines() if "The three run statuses" in line)
    assert row == (
        f'| <span id="{matrix_anchor(name)}"></span>The three run statuses | 0.7.0 | 0.7.0, 0.10.0 | 0.6.0 '
        "| **0.8.0–0.9.0** |"
    )


def test_a_scenario_without_a_current_row_shows_not_measured_on_the_matrix_page() -> None:
    name = "suspension/run-statuses"
    page = find_directives("<!-- verified-matrix -->\n", Path("availability.md"))[0]
    out = render_matrix(page, "reference/availability.md", _toy({"0.6.0": True}), {name: _scenario(name)}, {})
    row = next(line for line in out.splitlines() if "The three run statuses" in line)
    assert row.endswith("The three run statuses | 0.6.0 | 0.6.0 | none | none |")
    out = render_matrix(
        page, "reference/availability.md", release_matrix.Matrix(("0.6.0",), {}), {name: _scenario(name)}, {}
    )
    row = next(line for line in out.splitlines() if "The three run statuses" in line)
    assert row.endswith("The three run statuses | not measured | not measured on its present files | – | – |")


def test_ranges_join_neighbouring_releases() -> None:
    releases = ("0.6.0", "0.7.0", "0.8.0", "0.9.0", "0.10.0")
    assert release_matrix.ranges(releases, ["0.6.0", "0.7.0", "0.9.0"]) == ["0.6.0–0.7.0", "0.9.0"]
    assert release_matrix.ranges(releases, []) == []


def test_the_release_list_must_be_oldest_first(tmp_path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "releases.txt").write_text("# comment\n0.6.0\n0.9.0  # why\n0.7.0\n", encoding="utf-8")
    with pytest.raises(SourceError) as e:
        matrix.listed_releases(tmp_path)
    assert str(e.value) == (
        f"{tmp_path / 'rules' / 'releases.txt'}:4: releases must be listed oldest first "
        "without repeats: expected one newer than 0.9.0, got 0.7.0"
    )


def test_a_release_whose_inputs_are_unchanged_is_not_run_again(tmp_path) -> None:
    scenarios = discover_project(ROOT)
    expected = matrix.expected_releases(ROOT)
    old = expected[0]
    (tmp_path / f"{old}.json").write_text(
        json.dumps(
            {
                "toolnexus": old,
                "scenarios": {},
                "verify_s": 3.5,
                "inputs": matrix.inputs_digest(scenarios, old, ("python",)),
            }
        ),
        encoding="utf-8",
    )
    (tmp_path / f"{expected[1]}.json").write_text(
        json.dumps({"toolnexus": expected[1], "scenarios": {}, "inputs": "stale"}), encoding="utf-8"
    )
    planned = matrix.plan(ROOT, scenarios, tmp_path, ("python",))
    assert [p.release for p in planned] == expected
    assert [(p.release, p.cached, p.verify_s) for p in planned[:2]] == [(old, True, 3.5), (expected[1], False, 0.0)]
    assert not any(p.cached for p in planned[1:])
    assert matrix.inputs_digest(scenarios, old, ("python",)) != matrix.inputs_digest(
        scenarios, expected[1], ("python",)
    )


def test_a_changed_scenario_file_changes_the_inputs(tmp_path) -> None:
    original = _scenario("suspension/approval-gate")
    copy = tmp_path / "approval-gate"
    shutil.copytree(original.folder, copy)
    moved = dataclasses.replace(original, folder=copy)
    before = matrix.inputs_digest([moved], "0.6.0", ("python",))
    assert matrix.inputs_digest([moved], "0.6.0", ("python",)) == before
    golden = next(copy.glob("*.out"))
    golden.write_text(golden.read_text(encoding="utf-8") + "one more line\n", encoding="utf-8")
    assert matrix.inputs_digest([moved], "0.6.0", ("python",)) != before
