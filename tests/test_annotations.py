"""Under GitHub Actions every problem is also a workflow command (`::error file=...,line=...`),
so the broken line shows in the pull request's diff; elsewhere the output is as it was."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from conftest import SNIPPETS
from verified_docs import build as pipeline
from verified_docs.errors import Location, Problem, annotate, annotate_text, workflow_command

ACTIONS = {"GITHUB_ACTIONS": "true"}


def test_the_command_names_file_line_and_title_relative_to_the_root(tmp_path: Path) -> None:
    where = Location(tmp_path / "snippets" / "x" / "scenario.yaml", 12)
    assert (
        workflow_command("verification failed", "tool_runs: expected 2", where, root=tmp_path)
        == "::error file=snippets/x/scenario.yaml,line=12,title=verification failed::tool_runs: expected 2"
    )


def test_message_and_properties_are_escaped_as_github_requires(tmp_path: Path) -> None:
    where = Location(tmp_path / "a,b:c%.md", 3)
    line = workflow_command("claim: a, b", "100% sure\r\nno: really", where, ("detail, one",), root=tmp_path)
    assert line == (
        "::error file=a%2Cb%3Ac%25.md,line=3,title=claim%3A a%2C b::100%25 sure%0D%0Ano: really%0Adetail, one"
    )
    assert "\n" not in line and "\r" not in line


def test_a_whole_file_has_no_line_and_a_path_outside_the_root_no_file(tmp_path: Path) -> None:
    assert (
        workflow_command("t", "m", Location(tmp_path / "uv.lock"), root=tmp_path) == "::error file=uv.lock,title=t::m"
    )
    assert workflow_command("t", "m", Location(Path("/elsewhere/x.py"), 4), root=tmp_path) == "::error title=t::m"
    assert workflow_command("build stopped", "m") == "::error title=build stopped::m"


@pytest.mark.parametrize("env", [{}, {"GITHUB_ACTIONS": "false"}, {"CI": "true"}], ids=["unset", "false", "other-ci"])
def test_outside_actions_nothing_is_printed(env: dict[str, str]) -> None:
    out = io.StringIO()
    annotate([Problem(Location(Path("x.md"), 1), "wrong")], "t", stream=out, env=env)
    annotate_text("t", "m", stream=out, env=env)
    assert out.getvalue() == ""


def test_under_actions_one_command_per_problem(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))
    out = io.StringIO()
    annotate(
        [Problem(Location(tmp_path / "docs/a.md", 4), "claim: wrong"), Problem(Location(tmp_path / "b.md"), "x")],
        "page check failed",
        stream=out,
        env=ACTIONS,
    )
    assert out.getvalue() == (
        "::error file=docs/a.md,line=4,title=page check failed::claim: wrong\n"
        "::error file=b.md,title=page check failed::x\n"
    )


def broken_example(root: Path) -> Path:
    """A copy of the approval-gate example under ``root`` whose evidence says the tool ran 4
    times (it runs 3): the line a pull request would break."""
    dest = root / "snippets" / "suspension" / "approval-gate"
    shutil.copytree(SNIPPETS / "suspension" / "approval-gate", dest)
    yaml = dest / "scenario.yaml"
    text = yaml.read_text(encoding="utf-8")
    assert "tool_runs: {deploy: 3}" in text
    yaml.write_text(text.replace("tool_runs: {deploy: 3}", "tool_runs: {deploy: 4}"), encoding="utf-8")
    return yaml


def verify_broken(root: Path, capsys) -> tuple[list[str], list[str]]:
    with pytest.raises(pipeline.StageFailed, match=r"^1 run\(s\) failed verification$"):
        pipeline.verify(root, ("python",), force=True, jobs=1)
    out, err = capsys.readouterr()
    return out.splitlines(), err.splitlines()


def test_a_broken_example_annotates_its_scenario_line_only_under_actions(tmp_path: Path, capsys, monkeypatch) -> None:
    yaml = broken_example(tmp_path)
    line = next(n for n, text in enumerate(yaml.read_text().splitlines(), start=1) if "tool_runs: {deploy: 4}" in text)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    plain_out, plain_err = verify_broken(tmp_path, capsys)
    assert not [x for x in plain_out if x.startswith("::")]
    assert f"{yaml}:{line}: tool_runs: expected {{'deploy': 4}}, got {{'deploy': 3}}" in plain_err

    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))
    out, err = verify_broken(tmp_path, capsys)
    assert [x for x in out if x.startswith("::")] == [
        f"::error file=snippets/suspension/approval-gate/scenario.yaml,line={line},title=verification failed%3A "
        "suspension/approval-gate/approve-then-decline[python]::tool_runs: expected {'deploy': 4}, got {'deploy': 3}"
    ]
    # Everything else is as it was outside Actions.
    assert err == plain_err
    assert [x for x in out if not x.startswith("::")] == plain_out


def test_a_stopped_build_is_annotated(tmp_path: Path, capsys, monkeypatch) -> None:
    broken_example(tmp_path)
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n")
    (tmp_path / "docs").mkdir()
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))
    assert pipeline.main(["--root", str(tmp_path), "--force", "--jobs", "1", "--languages", "python"]) == 1
    out, err = capsys.readouterr()
    assert "::error title=build stopped::1 run(s) failed verification; site/ left as it was" in out.splitlines()
    assert "build stopped: 1 run(s) failed verification; site/ left as it was" in err.splitlines()


def test_a_claim_its_evidence_contradicts_is_annotated_claim_contradicted_at_its_page_line(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    shutil.copytree(SNIPPETS / "suspension" / "approval-gate", tmp_path / "snippets" / "suspension" / "approval-gate")
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nnav:\n  - x.md\n")
    (tmp_path / "docs").mkdir()
    claim = (
        '<!-- claim evidence="suspension/approval-gate#approve-then-decline.tool_runs.deploy" value="2" '
        'quote="ran twice" -->'
    )
    (tmp_path / "docs" / "x.md").write_text(f"# X\n\nThe tool ran twice.{claim}\n")
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))
    assert pipeline.main(["--root", str(tmp_path), "--force", "--jobs", "1", "--languages", "python"]) == 2
    out, err = capsys.readouterr()
    (annotation,) = [x for x in out.splitlines() if x.startswith("::")]
    assert annotation.startswith(
        "::error file=docs/x.md,line=3,title=claim contradicted::claim: "
        "suspension/approval-gate#approve-then-decline.tool_runs.deploy: the page says 2; "
        "the evidence checked in this build says 3%0A"
    ), annotation
    assert f"{tmp_path / 'docs' / 'x.md'}:3: claim: " in err
