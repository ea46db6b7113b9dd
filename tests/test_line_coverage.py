"""Every line a page shows ran: coverage.py in the snippet's process, checked where a page shows
a program (whole, folded around a section)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import SNIPPETS
from verified_docs import ledger as ledger_mod
from verified_docs.errors import SourceError
from verified_docs.render.directive import find_directives
from verified_docs.render.resolve import resolve
from verified_docs.render.tabs import render_example
from verified_docs.scenario.load import load_scenario
from verified_docs.verify.scenarios import verify_scenario

SCENARIO = "suspension/answer-later"
UPSTREAM_RESUME = """    if "--upstream" in sys.argv:
        # The upstream tutorial's phase 2: a new user turn on the stored chat.
        client = create_client(base_url=os.environ["OPENAI_BASE_URL"], api_key="x", wait_for=one_shot(answer))
        result = await client.run("The human has answered.", toolkit, history=messages)
    else:
"""


def project(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "project"
    shutil.copytree(SNIPPETS / SCENARIO, root / "snippets" / SCENARIO)
    return root, root / "snippets" / SCENARIO


def show(root: Path, folder: Path, section: str, program: str = "resume", run: str = "resume"):
    """Verify the copy, write its ledger, and resolve a directive on a page showing ``section``."""
    scenario = load_scenario(folder, root / "snippets")
    verdicts = verify_scenario(scenario)
    assert all(v.passed for v in verdicts), "\n".join(v.report() for v in verdicts)
    ledger = ledger_mod.build(verdicts, root)
    page = root / "docs" / "page.md"
    page.parent.mkdir(exist_ok=True)
    page.write_text(
        f'# P\n\n<!-- verified-example scenario="{SCENARIO}" program="{program}" section="{section}" run="{run}" -->\n'
    )
    (directive,) = find_directives(page.read_text(), page)
    return resolve(directive, {scenario.name: scenario}, ledger, root)


def test_a_shown_branch_that_never_ran_fails_at_the_page_naming_file_line_and_section(tmp_path: Path) -> None:
    # The review's finding: the broken upstream resume in a dead branch, the real code in `else:`.
    root, folder = project(tmp_path)
    program = folder / "resume.py"
    source = program.read_text()
    start = source.index("    turn = max(")
    end = source.index("    # --8<-- [end:rewind]")
    real = "".join("    " + line + "\n" for line in source[start:end].splitlines())
    program.write_text(source[:start] + UPSTREAM_RESUME + real + source[end:])
    dead = [
        n
        for n, line in enumerate(program.read_text().splitlines(), start=1)
        if line.startswith(
            (
                "        # The upstream",
                "        client = create_client(base_url",
                '        result = await client.run("The human',
            )
        )
    ]
    with pytest.raises(SourceError) as e:
        show(root, folder, "rewind")
    (problem,) = e.value.problems
    rel = f"snippets/{SCENARIO}/resume.py"
    assert str(problem.where) == f"{root / 'docs/page.md'}:3"
    assert (
        problem.what
        == f"{rel}, shown whole around section 'rewind', shows 2 line(s) that never ran in the verified run"
    )
    lines = program.read_text().splitlines()
    assert problem.details[:2] == tuple(f"{rel}:{n}: {lines[n - 1].strip()}" for n in dead[1:])


def test_a_line_marked_not_run_is_shown_and_the_page_says_it_did_not_run(tmp_path: Path) -> None:
    root, folder = project(tmp_path)
    example = show(root, folder, "one-shot")
    (tab,) = example.tabs
    source = (folder / "resume.py").read_text().splitlines()
    # The whole program is shown, so its marked lines outside the section count too; the
    # mismatch branch runs (run resume-rephrased). A statement split over several lines
    # carries the marker on its first line, the line reported.
    assert [source[n - 1].strip() for n in tab.not_run] == [
        "raise Refused(  # not run: no second call asks the same here",
        "sys.exit(  # not run: the request is parked and open here",
    ]
    rendered = render_example(example, "page.md")
    assert "The lines marked `# not run` did not run in this example; every other line of resume.py ran." in rendered


def test_without_its_marker_the_same_line_fails(tmp_path: Path) -> None:
    root, folder = project(tmp_path)
    program = folder / "resume.py"
    program.write_text(program.read_text().replace("  # not run: no second call asks the same here", "", 1))
    with pytest.raises(
        SourceError,
        match=r"page\.md:3: snippets/suspension/answer-later/resume\.py, shown whole "
        r"around section 'one-shot', shows 1 line\(s\) that never ran",
    ):
        show(root, folder, "one-shot")


def test_a_line_outside_the_section_that_never_ran_fails_too(tmp_path: Path) -> None:
    # The page folds the rest of the program around the section, and a reader can unfold it.
    root, folder = project(tmp_path)
    program = folder / "resume.py"
    program.write_text(program.read_text().replace("  # not run: the request is parked and open here", "", 1))
    with pytest.raises(SourceError) as e:
        show(root, folder, "one-shot")
    (problem,) = e.value.problems
    assert problem.what.endswith(
        "shown whole around section 'one-shot', shows 1 line(s) that never ran in the verified run"
    )
    line = next(n for n, text in enumerate(program.read_text().splitlines(), start=1) if text.strip() == "sys.exit(")
    assert problem.details[0] == f"snippets/{SCENARIO}/resume.py:{line}: sys.exit("


def test_a_marked_line_that_ran_is_refused(tmp_path: Path) -> None:
    root, folder = project(tmp_path)
    program = folder / "resume.py"
    source = program.read_text()
    program.write_text(source.replace("    used = False\n", "    used = False  # not run\n", 1))
    with pytest.raises(SourceError) as e:
        show(root, folder, "one-shot")
    (problem,) = e.value.problems
    assert problem.what == f"snippets/{SCENARIO}/resume.py marks line(s) `# not run` that ran"
    assert problem.details[0].endswith("used = False  # not run")
