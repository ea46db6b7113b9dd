"""Every delivered reply matters: the harness swaps each reply a tool received and follows it."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import SNIPPETS
from verified_docs.scenario.load import load_scenario
from verified_docs.verify.replies import fresh_value, fresh_values
from verified_docs.verify.scenarios import verify_scenario


def copy(tmp_path: Path, name: str) -> Path:
    target = tmp_path / "snippets" / name
    shutil.copytree(SNIPPETS / name, target)
    return target


def problems_of(folder: Path, root: Path) -> list[str]:
    return [f"{p.where}: {p.what}" for v in verify_scenario(load_scenario(folder, root)) for p in v.problems]


def test_a_reply_read_then_ignored_fails_without_any_hand_written_variant(tmp_path: Path) -> None:
    # The review's finding: the tool reads the approver, then returns one of its own.
    folder = copy(tmp_path, "suspension/several-suspensions")
    program = folder / "several.py"
    source = program.read_text()
    original = "approved by {ctx.answer.data['approver']}\""
    assert original in source
    # Same output as before for this script, so the first pass and the golden output still hold.
    hard_coded = "approved by {({'api': 'dana', 'web': 'lee'}[service]) if ctx.answer.data.get('approver') else ''}\""
    program.write_text(source.replace(original, hard_coded))
    assert "variants" not in (folder / "scenario.yaml").read_text()
    found = problems_of(folder, tmp_path / "snippets")
    run_line = next(
        n
        for n, line in enumerate((folder / "scenario.yaml").read_text().splitlines(), start=1)
        if line.strip() == "- name: inline"
    )
    assert (
        f"{folder / 'scenario.yaml'}:{run_line}: the reply 'dana' did not change what the tool returned; "
        "is it hard-coded?" in found
    )
    assert (
        f"{folder / 'scenario.yaml'}:{run_line}: the reply 'lee' did not change what the tool returned; "
        "is it hard-coded?" in found
    )


def test_the_unchanged_scenario_passes_its_reply_pass(tmp_path: Path) -> None:
    folder = copy(tmp_path, "suspension/several-suspensions")
    assert problems_of(folder, tmp_path / "snippets") == []


def test_a_reply_that_shows_up_nowhere_must_be_named_with_a_reason(tmp_path: Path) -> None:
    folder = copy(tmp_path, "suspension/several-suspensions")
    program = folder / "several.py"
    source = program.read_text()
    program.write_text(
        source.replace(", approved by {ctx.answer.data['approver']}\"", "\" if ctx.answer.data['approver'] else ''")
    )
    for path in folder.iterdir():  # the pages' text without the approvers, so the first pass holds
        if path.suffix in (".out", ".yaml"):
            path.write_text(path.read_text().replace(", approved by dana", "").replace(", approved by lee", ""))
    found = problems_of(folder, tmp_path / "snippets")
    assert any(
        p.endswith(
            "the reply 'dana' (replaced by 'qnan' in a second pass) reached the tool, but nothing the tool "
            "returned, the model was shown or the program printed contains it"
        )
        for p in found
    ), found
    yaml = folder / "scenario.yaml"
    yaml.write_text(
        yaml.read_text().replace(
            "runs:\n",
            "replies_unseen:\n  dana: only checked for presence here\n  lee: only checked for presence here\nruns:\n",
            1,
        )
    )
    assert not any("reached the tool, but nothing" in p for p in problems_of(folder, tmp_path / "snippets"))


def test_fresh_values_keep_the_shape_and_never_contain_a_reply() -> None:
    assert fresh_value("2030-02-04") == "2030-03-13"  # still an ISO date a tool can parse
    assert fresh_value("eu-west-1") == "rh-jrfg-6"
    mapping = fresh_values(["staging", "dana", "a1"])
    assert mapping["staging"] == "fgntvat"
    assert all(r not in f and f not in r for f in mapping.values() for r in mapping)
