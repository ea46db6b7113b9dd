"""`nox -s new`: the files it writes, the one nav line it adds, and what it refuses."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from conftest import ROOT, TEST_EDIT_URI
from verified_docs.errors import UsageError
from verified_docs.scaffold.new import MAX_TITLE, Example, check_title, files, parse_name, scaffold, with_nav_entry
from verified_docs.scenario.load import load_scenario
from verified_docs.scenario.sections import parse_sections

CONFIG = """site_name: x
nav:
  - Start here:
      - Home: index.md
  - Answer inline:
      - An approval gate: suspension/approval-gate.md
      - Log in first: suspension/log-in-first.md
  - Reference:
      - The contract: reference/contract.md

theme:
  name: material
"""


def _project(tmp_path: Path) -> Path:
    (tmp_path / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
    return tmp_path


def test_a_name_is_a_guide_and_a_slug() -> None:
    assert parse_name("suspension/approve-with-a-note") == ("suspension", "approve-with-a-note")
    for bad in ("approve", "Suspension/x", "suspension/x/y", "suspension/x y", "../x/y"):
        with pytest.raises(UsageError, match="expected <guide>/<name>"):
            parse_name(bad)


def test_a_title_must_fit_the_programs_first_line() -> None:
    assert check_title("Approve with a note") == "Approve with a note"
    for bad in ("", "x" * (MAX_TITLE + 1), 'say """hi"""', "two\nlines", "back\\slash"):
        with pytest.raises(UsageError, match=f"at most {MAX_TITLE} characters"):
            check_title(bad)
    longest = Example(Path("/p"), "suspension", "x", "x" * MAX_TITLE)
    program = files(longest)[longest.program]
    assert max(len(line) for line in program.splitlines()) <= 80


def test_the_nav_line_goes_after_the_guides_last_page_and_nothing_else_moves(tmp_path: Path) -> None:
    example = Example(tmp_path, "suspension", "approve-with-a-note", "Approve: with a note")
    text, line = with_nav_entry(CONFIG, example)
    assert line == 8
    assert text.splitlines()[line - 1] == '      - "Approve: with a note": suspension/approve-with-a-note.md'
    assert text.replace(text.splitlines(keepends=True)[line - 1], "", 1) == CONFIG
    nav = YAML(typ="safe").load(text)["nav"]
    assert nav[1]["Answer inline"][-1] == {"Approve: with a note": "suspension/approve-with-a-note.md"}
    # A title YAML reads as it is goes unquoted, like the entries around it.
    plain, line = with_nav_entry(CONFIG, Example(tmp_path, "suspension", "x", "Approve with a note"))
    assert plain.splitlines()[line - 1] == "      - Approve with a note: suspension/x.md"
    # A guide with no page yet goes at the end of the nav, before the blank line that ends it.
    other, line = with_nav_entry(CONFIG, Example(tmp_path, "recipes", "first", "First"))
    assert YAML(typ="safe").load(other)["nav"][-1] == {"First": "recipes/first.md"}
    assert other.splitlines()[line] == ""


def test_it_writes_a_program_a_scenario_and_a_page_that_load(tmp_path: Path) -> None:
    root = _project(tmp_path)
    example = Example(root, "suspension", "approve-with-a-note", "Approve with a note")
    report = scaffold(example)
    assert [line.split(":")[0] for line in report] == [
        "wrote snippets/suspension/approve-with-a-note/approve_with_a_note.py",
        "wrote snippets/suspension/approve-with-a-note/scenario.yaml",
        "wrote docs/suspension/approve-with-a-note.md",
        "added line 8 to mkdocs.yml",
    ]
    scenario = load_scenario(example.folder, root / "snippets")
    assert scenario.name == "suspension/approve-with-a-note" and scenario.title == "Approve with a note"
    assert set(parse_sections(example.program)) >= {"tool", "run"}
    page = example.page.read_text(encoding="utf-8")
    assert 'program="approve_with_a_note" section="tool"' in page and "<!-- claim evidence=" in page
    compile(example.program.read_text(encoding="utf-8"), str(example.program), "exec")


def test_nothing_is_overwritten_and_nothing_half_written(tmp_path: Path) -> None:
    root = _project(tmp_path)
    example = Example(root, "suspension", "approve-with-a-note", "Approve with a note")
    example.page.parent.mkdir(parents=True)
    example.page.write_text("mine\n", encoding="utf-8")
    with pytest.raises(UsageError, match="approve-with-a-note.md already exists; nothing written"):
        scaffold(example)
    assert example.page.read_text(encoding="utf-8") == "mine\n"
    assert not example.folder.exists()
    assert (root / "mkdocs.yml").read_text(encoding="utf-8") == CONFIG
    example.page.unlink()
    scaffold(example)
    with pytest.raises(UsageError, match="already exists; nothing written"):
        scaffold(example)


def test_the_real_nav_takes_a_new_suspension_page_in_the_last_group_listing_one() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    text, line = with_nav_entry(config, Example(ROOT, "suspension", "x", "X"))
    assert text.splitlines()[line - 2].endswith("suspension/production-checklist.md")


def test_the_readme_shows_the_scenario_it_writes_without_comments_and_summary(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("   ```yaml\n", 1)[1].split("   ```\n", 1)[0]
    shown = "".join(line[3:] if line.strip() else line for line in block.splitlines(keepends=True))
    example = Example(tmp_path, "suspension", "approve-with-a-note", "Approve with a note")
    written = files(example)[example.folder / "scenario.yaml"]
    lines = [line for line in written.splitlines(keepends=True) if not line.lstrip().startswith("#")]
    summary = next(i for i, line in enumerate(lines) if line.startswith("summary:"))
    end = next(i for i in range(summary + 1, len(lines)) if not lines[i].startswith("  "))
    assert shown == "".join(lines[:summary] + lines[end:])


def test_a_scaffolded_example_builds_green_as_it_stands(tmp_path: Path) -> None:
    """The whole path an author takes: `new`, then the build `nox -s docs` runs, in a project
    of one home page (the real mkdocs.yml, its nav cut down to it)."""
    root = tmp_path / "project"
    (root / "docs").mkdir(parents=True)
    for assets in ("javascripts", "stylesheets"):
        shutil.copytree(ROOT / "docs" / assets, root / "docs" / assets)
    (root / "docs" / "index.md").write_text("# Home\n\n## Quick start\n\nNo example here.\n", encoding="utf-8")
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = config[: config.index("nav:")] + "nav:\n  - Home: index.md\n\n" + config[config.index("theme:") :]
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    # The author's own build, outside CI: it records the new page's claimed sentences.
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "VERIFIED_DOCS_EDIT_URI": TEST_EDIT_URI}
    env.pop("CI", None)

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "verified_docs", *args],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )

    made = run("new", "suspension/approve-with-a-note")
    assert made.returncode == 0, made.stdout + made.stderr
    golden = root / "snippets/suspension/approve-with-a-note/approve_with_a_note.py.out"
    assert golden.read_text(encoding="utf-8") == (
        "asked: Who is Lisbon for?\nstatus: done\nmodel said: The tool result I was shown: booked Lisbon for sam\n"
    )
    assert "nox -s release-matrix -- --only suspension/approve-with-a-note" in made.stdout
    built = run("build")
    assert built.returncode == 0, built.stdout + built.stderr
    page = (root / "site/suspension/approve-with-a-note/index.html").read_text(encoding="utf-8")
    assert "booked Lisbon for sam" in page and "Approve with a note" in page
    record = json.loads((root / "rules/claimed-sentences.json").read_text(encoding="utf-8"))
    assert list(record) == ["suspension/approve-with-a-note.md"] and record["suspension/approve-with-a-note.md"]
    assert "new claimed sentence(s) recorded in rules/claimed-sentences.json; commit it" in built.stdout
    # No release matrix yet: the build says the one command, and passes.
    assert "run `nox -s release-matrix -- --only suspension/approve-with-a-note`" in built.stdout
    again = run("new", "suspension/approve-with-a-note")
    assert again.returncode == 2 and "already exists; nothing written" in again.stderr
