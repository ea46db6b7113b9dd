"""The MkDocs hook refuses unknown, malformed and unverified examples, naming page and line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import ROOT, SNIPPETS, build_site
from verified_docs import ledger as ledger_mod
from verified_docs.scenario.load import load_scenario
from verified_docs.verify.scenarios import verify_scenario

PAGE = """# Page

<!-- verified-example scenario="{scenario}" program="approval_gate" section="{section}" -->
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A one-page MkDocs project using the real hook and a copy of the approval-gate scenario."""
    root = tmp_path_factory.mktemp("project")
    shutil.copytree(SNIPPETS / "suspension/approval-gate", root / "snippets/suspension/approval-gate")
    (root / "docs").mkdir()
    config = (ROOT / "mkdocs.yml").read_text()
    config = config[: config.index("nav:")] + "nav:\n  - page.md\n" + config[config.index("theme:") :]
    config = config.replace("verified_docs/site/mkdocs_hook.py", str(ROOT / "verified_docs/site/mkdocs_hook.py"))
    (root / "mkdocs.yml").write_text(config)
    scenario = load_scenario(root / "snippets/suspension/approval-gate", root / "snippets")
    ledger_mod.save(ledger_mod.build(verify_scenario(scenario), root), root / "ledger.json")
    return root


def build(
    project: Path, scenario: str = "suspension/approval-gate", section: str = "tool", ledger: str = "ledger.json"
):
    (project / "docs/page.md").write_text(PAGE.format(scenario=scenario, section=section))
    return build_site(project / ledger, project / "site", config=project / "mkdocs.yml")


def test_verified_example_builds_into_one_titled_block_of_the_whole_program(project: Path) -> None:
    built = build(project)
    assert built.returncode == 0, built.output
    html = (project / "site/page/index.html").read_text()
    # One language ran: no tab bar; the block's title names the language and the file.
    assert 'class="tabbed-set' not in html
    assert '<span class="filename">Python · approval_gate.py</span>' in html
    assert 'class="vd-program highlight" data-vd-focus="' in html
    # The whole program, its imports included, is in the block (folded in the browser).
    assert '<span class="kn">import</span>' in html and "Ran green against toolnexus" in html


def test_unknown_scenario_names_page_line_and_valid_names(project: Path) -> None:
    built = build(project, scenario="suspension/nope")
    assert built.returncode != 0
    assert f"{project / 'docs/page.md'}:3: unknown scenario 'suspension/nope'" in built.output
    assert "valid scenarios: suspension/approval-gate" in built.output


def test_unknown_section_lists_the_valid_ones(project: Path) -> None:
    built = build(project, section="nope")
    assert built.returncode != 0
    assert f"{project / 'docs/page.md'}:3: unknown section 'nope'" in built.output
    assert "valid sections: run, tool, wait-for" in built.output


def test_missing_ledger_says_how_to_make_one(project: Path) -> None:
    built = build(project, ledger="no-such-ledger.json")
    assert built.returncode != 0
    assert "no verification ledger; run `nox -s docs`" in built.output


def test_program_changed_after_verification_is_refused(project: Path) -> None:
    program = project / "snippets/suspension/approval-gate/approval_gate.py"
    original = program.read_text()
    try:
        program.write_text(original.replace("approved by {approver}", "approved by {approver}!"))
        built = build(project)
    finally:
        program.write_text(original)
    assert built.returncode != 0
    assert (
        f"{project / 'docs/page.md'}:3: example is stale: snippets/suspension/approval-gate/approval_gate.py "
        "changed after it was verified; section 'tool' differs from the verified one"
    ) in built.output


def test_unclosed_section_in_the_program_fails_the_build(project: Path) -> None:
    program = project / "snippets/suspension/approval-gate/approval_gate.py"
    original = program.read_text()
    try:
        program.write_text(original.replace("# --8<-- [end:tool]\n", "", 1))
        built = build(project)
    finally:
        program.write_text(original)
    assert built.returncode != 0
    line = original.splitlines().index("# --8<-- [start:tool]") + 1
    assert f"approval_gate.py:{line}: section 'tool' is never closed" in built.output


def test_evidence_directive_renders_from_the_scenario(project: Path) -> None:
    (project / "docs/page.md").write_text('# Page\n\n<!-- verified-evidence scenario="suspension/approval-gate" -->\n')
    built = build_site(project / "ledger.json", project / "site", config=project / "mkdocs.yml")
    assert built.returncode == 0, built.output
    html = (project / "site/page/index.html").read_text()
    assert "Checked on every build" in html
    assert "<code>wait_for</code> was called 2 times." in html


def test_an_unclosed_fence_that_swallows_the_example_fails_the_build_at_its_line(project: Path) -> None:
    page = PAGE.format(scenario="suspension/approval-gate", section="tool")
    (project / "docs/page.md").write_text("# Page\n\n```text\nnever closed\n" + page[len("# Page\n") :])
    built = build_site(project / "ledger.json", project / "site", config=project / "mkdocs.yml")
    assert built.returncode != 0
    assert (
        f"{project / 'docs/page.md'}:3: code fence '```text' is never closed: it swallows everything after it\n"
        "    close it with a line holding ```; it hides the verified directive(s) at line(s) 6"
    ) in built.output


def test_every_directive_comes_out_with_its_marker_at_its_file_line(project: Path) -> None:
    # Front matter is taken off before the hook sees the page: lines still count from the file's top.
    from verified_docs.site.guard import directive_problems

    (project / "docs/page.md").write_text(
        "---\ntitle: A page\n---\n\n"
        + PAGE.format(scenario="suspension/approval-gate", section="tool")
        + '\n<!-- verified-evidence scenario="suspension/approval-gate" -->\n'
    )
    built = build_site(project / "ledger.json", project / "site", config=project / "mkdocs.yml")
    assert built.returncode == 0, built.output
    html = (project / "site/page/index.html").read_text()
    assert 'data-vd-directive="example-7"' in html and 'data-vd-directive="evidence-9"' in html
    assert directive_problems(project / "site", project / "docs") == []


def test_a_site_built_without_the_hook_fails_the_guard_at_the_first_directive(project: Path, tmp_path: Path) -> None:
    # As a generator that runs no MkDocs hooks (Zensical) would build it: directives stay comments.
    from verified_docs.site.guard import directive_problems

    build(project)
    with_hook = (project / "mkdocs.yml").read_text()
    without = with_hook.replace(f"hooks:\n  - {ROOT / 'verified_docs/site/mkdocs_hook.py'}\n", "")
    assert without != with_hook
    config = project / "mkdocs-no-hook.yml"
    config.write_text(without)
    built = build_site(project / "ledger.json", tmp_path / "site", config=config)
    assert built.returncode == 0, built.output
    assert [str(p) for p in directive_problems(tmp_path / "site", project / "docs")] == [
        f"{project / 'docs/page.md'}:3: verified-example did not come out in page/index.html: none of the page's 1 "
        "directive(s) did (no data-vd-directive marker at all: was the page built from docs/ as written, without the render stage?)"
    ]
