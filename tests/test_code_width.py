"""The code-width rule in the render stage: a shown code line of more than 80 characters fails
the build at the file and line the reader sees it from; exactly 80 passes. The browser test
(``tests/browser/test_layout.py``) measures the same in pixels."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import SNIPPETS
from verified_docs import ledger as ledger_mod
from verified_docs.errors import SourceError
from verified_docs.render.code_width import MAX_COLUMNS, columns, shown_code_problems
from verified_docs.render.pages import Renderer, _rendered_docs
from verified_docs.scenario.load import load_scenario
from verified_docs.verify.scenarios import verify_scenario

SCENARIO = "suspension/approval-gate"
FITS = "# " + "x" * (MAX_COLUMNS - 2)
ONE_OVER = "# " + "y" * (MAX_COLUMNS - 1)


def test_columns_count_what_a_monospace_block_draws() -> None:
    assert MAX_COLUMNS == 80  # measured in Chromium at 1280 px: 80 fit, 81 scroll (code_width's docstring)
    assert (columns(FITS), columns(ONE_OVER)) == (80, 81)
    assert columns("\tx") == 9 and columns("abc\tx") == 9  # a tab reaches the next multiple of 8
    assert columns("中x") == 3  # a wide character takes two columns
    assert columns("e\u0301") == 1  # a combining accent takes none


def test_a_fence_line_one_over_fails_at_the_page_line_and_exactly_the_limit_passes(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    markdown = (
        "# P\n\n```python\n"
        f"{FITS}\n"
        f"{ONE_OVER}\n"
        "```\n\n"
        '=== "A tab"\n\n'
        "    ```python\n"
        f"    {FITS}\n"  # the tab's indentation is not shown
        "    ```\n\n"
        "```mermaid\n"
        f"{ONE_OVER}\n"  # drawn as a diagram, not shown as code
        "```\n"
    )
    (problem,) = shown_code_problems(page, markdown, [])
    assert str(problem.where) == f"{page}:5"
    assert problem.what == (
        "line is 81 characters wide, 1 over the 80 a code block shows at 1280 px without scrolling "
        "sideways (in the code fence opened at line 3)"
    )
    assert problem.details[0] == f"| {ONE_OVER}"
    assert "Rules a page must meet" in problem.details[1] and problem.details[2].startswith("fix: break the line")
    assert problem.title == "page rule broken"  # its annotation title under GitHub Actions


def _verified_copy(root: Path, lines: list[str]) -> tuple[Path, Renderer]:
    """approval-gate copied under ``root`` with ``lines`` added after its imports, verified, and a
    renderer over that ledger; returns the program and the renderer."""
    folder = root / "snippets" / SCENARIO
    shutil.copytree(SNIPPETS / SCENARIO, folder)
    program = folder / "approval_gate.py"
    source = program.read_text(encoding="utf-8")
    program.write_text(source.replace("import os\n", "import os\n" + "".join(f"{x}\n" for x in lines), 1))
    scenario = load_scenario(folder, root / "snippets")
    verdicts = verify_scenario(scenario)
    assert all(v.passed for v in verdicts), "\n".join(v.report() for v in verdicts)
    docs = root / "docs"
    docs.mkdir()
    renderer = Renderer(root, docs, {scenario.name: scenario}, ledger_mod.build(verdicts, root), None, (root, root), {})
    return program, renderer


def test_a_program_line_one_over_fails_once_at_the_program_line_and_exactly_the_limit_passes(tmp_path: Path) -> None:
    root = tmp_path / "project"
    program, renderer = _verified_copy(root, [FITS, ONE_OVER])
    # Two pages show the program whole, three times: the long line is reported once.
    directive = f'<!-- verified-example scenario="{SCENARIO}" program="approval_gate" section="{{}}" output="no" -->\n'
    (renderer.docs / "a.md").write_text("# A\n\n" + directive.format("tool") + "\n" + directive.format("run"))
    (renderer.docs / "b.md").write_text("# B\n\n" + directive.format("tool"))
    with pytest.raises(SourceError) as e:
        _rendered_docs(renderer, renderer.docs, root / "out")
    (problem,) = e.value.problems
    line = program.read_text(encoding="utf-8").splitlines().index(ONE_OVER) + 1
    assert problem.where.path == program and problem.where.line == line
    assert problem.what.startswith("line is 81 characters wide, 1 over the 80 ")
    assert problem.what.endswith("(an example shows this program whole)")


def test_a_program_whose_longest_line_is_exactly_the_limit_renders(tmp_path: Path) -> None:
    root = tmp_path / "project"
    _, renderer = _verified_copy(root, [FITS])
    page = renderer.docs / "a.md"
    page.write_text(
        f'# A\n\n<!-- verified-example scenario="{SCENARIO}" program="approval_gate" section="tool" output="no" -->\n'
    )
    rendered = renderer.render_page(page.read_text(), page, "a.md")
    assert '--8<-- "snippets/suspension/approval-gate/approval_gate.py"' in rendered
