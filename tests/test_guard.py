"""The built site: strict build passes and every code block in it ran in this session."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT, BuiltSite, Verification
from verified_docs import ledger as ledger_mod
from verified_docs.render.directive import find_directives
from verified_docs.render.tabs import SOURCE_DIR
from verified_docs.site.guard import check_site, directive_problems, published_source_problems
from verified_docs.site.page_rules import page_rule_problems


def test_strict_build_passes(built_site: BuiltSite) -> None:
    assert built_site.returncode == 0, built_site.output


@pytest.mark.guard
def test_every_code_block_in_the_site_ran(
    built_site: BuiltSite, verification: Verification, executed_fences: set[tuple[str, int]]
) -> None:
    assert built_site.returncode == 0, built_site.output
    verified = ledger_mod.load(verification.ledger_path).verified_hashes()
    problems, checked = check_site(built_site.site, ROOT / "docs", verified, executed_fences)
    assert checked >= 5, f"only {checked} code blocks in the built site; is the hook rendering examples?"
    assert not problems, "\n".join(str(p) for p in problems)


def test_every_directive_of_the_docs_came_out_as_its_block(built_site: BuiltSite) -> None:
    assert built_site.returncode == 0, built_site.output
    directives = [d for md in sorted((ROOT / "docs").rglob("*.md")) for d in find_directives(md.read_text(), md)]
    assert len(directives) >= 20 and {d.kind for d in directives} == {
        "example",
        "evidence",
        "contract",
        "matrix",
        "sources",
        "install",
        "diagram",
        "api-reference",
    }
    assert directive_problems(built_site.site, ROOT / "docs") == []


def test_every_page_meets_the_page_rules_the_html_shows(built_site: BuiltSite) -> None:
    assert built_site.returncode == 0, built_site.output
    assert page_rule_problems(built_site.site, ROOT / "docs") == []


def test_every_verified_program_is_published_byte_for_byte(built_site: BuiltSite, verification: Verification) -> None:
    ledger = ledger_mod.load(verification.ledger_path)
    published = sorted(
        p.relative_to(built_site.site / SOURCE_DIR).as_posix()
        for p in (built_site.site / SOURCE_DIR).rglob("*")
        if p.is_file()
    )
    assert published == sorted(ledger.passed_files())
    assert not published_source_problems(built_site.site, ledger.passed_files())


def test_a_published_program_that_was_not_verified_or_was_altered_is_caught(
    tmp_path, verification: Verification
) -> None:
    passed = ledger_mod.load(verification.ledger_path).passed_files()
    rel = sorted(passed)[0]
    folder = tmp_path / SOURCE_DIR
    (folder / rel).parent.mkdir(parents=True)
    (folder / rel).write_bytes((ROOT / rel).read_bytes() + b"# edited after verification\n")
    (folder / "snippets").mkdir(exist_ok=True)
    (folder / "snippets" / "extra.py").write_text("print('never ran')\n")
    problems = [p.what for p in published_source_problems(tmp_path, passed)]
    assert problems == [
        f"published program {rel} differs from the verified file",
        "published program snippets/extra.py was not verified green in this build",
    ]


def test_a_guard_test_run_without_the_docs_fences_fails_at_once_naming_the_run_that_works() -> None:
    """Alone, a guard test could only fail after a verification and a build, naming every fence
    as not executed; the conftest fails it before its fixtures, and its message names the fix."""
    alone = "tests/test_guard.py::test_every_code_block_in_the_site_ran"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", alone],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 error in" in done.stdout and "none was collected" in done.stdout
    assert "nox -s tests -- docs tests/test_guard.py" in done.stdout
