from pathlib import Path

import pytest

from verified_docs.errors import SourceError
from verified_docs.scenario.load import discover, load_scenario

VALID = """title: T
runs:
  - name: one
    programs: {python: main.py}
    model:
      - reply: hi
    expect:
      model_requests: 1
      tool_runs: {}
      tool_results_shown: []
      wait_for_calls: 0
      run_statuses: [done]
"""


def make(tmp_path: Path, text: str, name: str = "s") -> Path:
    folder = tmp_path / "g" / name
    folder.mkdir(parents=True)
    (folder / "main.py").write_text("print('hi')\n")
    (folder / "scenario.yaml").write_text(text)
    return folder


def test_valid_scenario_loads_with_lines(tmp_path: Path) -> None:
    s = load_scenario(make(tmp_path, VALID), tmp_path)
    assert s.name == "g/s" and s.languages == ("python",)
    (run,) = s.runs
    assert run.steps[0].reply == "hi" and run.steps[0].where.line == 6
    assert run.expect.model_requests == 1 and run.expect.line_of("model_requests") == 8


def test_yaml_syntax_error_names_the_line(tmp_path: Path) -> None:
    folder = make(tmp_path, "title: T\nruns: [\n  - oops: {\n")
    with pytest.raises(SourceError, match=r"scenario\.yaml:\d+: invalid YAML"):
        load_scenario(folder, tmp_path)


def test_wrong_type_and_unknown_key_name_file_line_and_path(tmp_path: Path) -> None:
    text = VALID.replace("model_requests: 1", "model_requests: many\n      colour: red")
    folder = make(tmp_path, text)
    with pytest.raises(SourceError) as e:
        load_scenario(folder, tmp_path)
    msg = str(e.value)
    assert (
        f"{folder / 'scenario.yaml'}:9: runs/0/expect: Additional properties are not allowed ('colour' was unexpected)"
        in msg
    )
    assert f"{folder / 'scenario.yaml'}:8: runs/0/expect/model_requests: 'many' is not of type 'integer'" in msg


def test_a_hand_written_since_is_refused_with_the_command_that_measures_it(tmp_path: Path) -> None:
    folder = make(tmp_path, VALID.replace("title: T\n", "title: T\nsince: 0.7.0\n"))
    with pytest.raises(SourceError) as e:
        load_scenario(folder, tmp_path)
    [problem] = e.value.problems
    assert (
        str(problem).splitlines()[0]
        == f"{folder / 'scenario.yaml'}:2: since: is measured, not written: delete this line"
    )
    assert "nox -s release-matrix -- --only <scenario>" in problem.details[0]


def test_step_with_two_actions_and_missing_program(tmp_path: Path) -> None:
    text = VALID.replace("- reply: hi", "- reply: hi\n        quote_last_tool_result: true").replace(
        "main.py", "gone.py"
    )
    with pytest.raises(SourceError) as e:
        load_scenario(make(tmp_path, text), tmp_path)
    msg = str(e.value)
    assert (
        ":6: runs/0/model/0: a step needs exactly one of call, calls, reply, quote_last_tool_result; got reply, quote_last_tool_result"
        in msg
    )
    assert ":4: program gone.py does not exist" in msg


def test_discover_reports_every_broken_scenario(tmp_path: Path) -> None:
    make(tmp_path, VALID, "a")
    make(tmp_path, "title: 3\n", "b")
    with pytest.raises(SourceError, match=r"b/scenario\.yaml:1: \(top level\): 'runs' is a required property"):
        discover(tmp_path)


def test_run_with_no_evidence_is_refused(tmp_path: Path) -> None:
    text = VALID.split("    expect:")[0] + "    expect: {}\n"
    with pytest.raises(SourceError, match=r"runs/0/expect: \{\} should be non-empty"):
        load_scenario(make(tmp_path, text), tmp_path)


def test_two_scenarios_with_the_same_title_are_refused(tmp_path: Path) -> None:
    from verified_docs.scenario.load import discover_project

    make(tmp_path / "snippets", VALID, "a")
    make(tmp_path / "snippets", VALID, "b")
    with pytest.raises(SourceError) as e:
        discover_project(tmp_path)
    assert "scenario title 'T' is already used by" in str(e.value)
    assert str(e.value).startswith(f"{tmp_path / 'snippets/g/b/scenario.yaml'}:1:")


def test_run_that_talks_to_the_model_must_state_the_evidence_floor(tmp_path: Path) -> None:
    # Only an exit code and a printed line: a page could describe nothing of what happened.
    text = VALID.split("    expect:")[0] + "    expect:\n      exit_code: 0\n      stdout_contains: [hi]\n"
    folder = make(tmp_path, text)
    with pytest.raises(SourceError) as e:
        load_scenario(folder, tmp_path)
    assert str(e.value) == (
        f"{folder / 'scenario.yaml'}:7: runs/0/expect: evidence below the floor: a run that talks "
        "to the model must state tool_runs, tool_results_shown, wait_for_calls, run_statuses; "
        "missing tool_runs, tool_results_shown, wait_for_calls, run_statuses"
    )


def test_floor_names_only_what_is_missing_and_a_run_without_model_states_its_requests(tmp_path: Path) -> None:
    partial = VALID.replace("      wait_for_calls: 0\n", "")
    with pytest.raises(SourceError, match=r":7: runs/0/expect: evidence below the floor: .*; missing wait_for_calls$"):
        load_scenario(make(tmp_path, partial, "a"), tmp_path)
    no_model = VALID.split("    model:")[0] + "    model: []\n    expect:\n      stdout_contains: [hi]\n"
    with pytest.raises(
        SourceError,
        match=r":6: runs/0/expect: evidence below the floor: a run that has no model "
        r"script must state model_requests; missing model_requests$",
    ):
        load_scenario(make(tmp_path, no_model, "b"), tmp_path)
    fine = VALID.split("    model:")[0] + "    model: []\n    expect:\n      model_requests: 0\n"
    assert load_scenario(make(tmp_path, fine, "c"), tmp_path).runs[0].expect.model_requests == 0
