import os
import stat
from pathlib import Path

import pytest

from verified_docs.files import write_atomic
from verified_docs.verify.golden import MAX_DIFF_LINES, compare, update_command, write_if_changed


def test_equal_after_normalising_ids(tmp_path: Path) -> None:
    g = tmp_path / "p.py.out"
    g.write_text("request pnd-18f-1 parked\n")
    assert compare(g, "request pnd-19a-7 parked\n") == []


def test_drift_is_a_diff_at_the_golden_line(tmp_path: Path) -> None:
    g = tmp_path / "p.py.out"
    g.write_text("status: pending\nparked ask-1\n")
    (problem,) = compare(g, "status: pending\nparked ask-2\n")
    assert str(problem.where) == f"{g}:2"
    assert problem.what == "printed output differs from the golden output"
    assert "-parked ask-1" in problem.details and "+parked ask-2" in problem.details


def test_each_problem_names_the_command_that_rewrites_its_scenarios_golden_files(tmp_path: Path) -> None:
    g = tmp_path / "p.py.out"
    g.write_text("parked ask-1\n")
    (drift,) = compare(g, "parked ask-2\n", scenario="suspension/answer-later")
    assert drift.what == "printed output differs from the golden output"
    assert drift.details[0] == (
        "if the printed output is right: `nox -s update-outputs -- --only suspension/answer-later` "
        "(it rewrites a run's golden file only when this is the run's one problem: fix the others first)"
    )
    assert drift.details[1:3] == (f"--- {g} (golden)", "+++ printed by this run")
    # Once, and only from the first pass: a variant leaves it out (no rewrite fixes that).
    assert sum("update-outputs" in line for line in drift.details) == 1
    assert not [line for line in compare(g, "parked ask-2\n")[0].details if "update-outputs" in line]
    assert update_command("suspension/it's here") == "nox -s update-outputs -- --only 'suspension/it'\"'\"'s here'"
    g.unlink()
    assert compare(g, "x\n", scenario="suspension/answer-later")[0].what == (
        "golden output file is missing; create it with `nox -s update-outputs -- --only suspension/answer-later`"
    )


def test_missing_and_crlf_golden_files(tmp_path: Path) -> None:
    g = tmp_path / "p.py.out"
    assert "golden output file is missing" in compare(g, "x\n")[0].what
    g.write_bytes(b"a\nb\r\n")
    (problem,) = compare(g, "a\nb\n")
    assert problem.where.line == 2 and "Windows line endings" in problem.what


def test_write_only_when_changed(tmp_path: Path) -> None:
    g = tmp_path / "p.py.out"
    assert write_if_changed(g, "id pnd-1-1\n") is True
    before = g.stat().st_mtime_ns
    assert write_if_changed(g, "id pnd-2-2\n") is False  # equivalent after normalising
    assert g.stat().st_mtime_ns == before and g.read_text() == "id pnd-1-1\n"
    assert write_if_changed(g, "other\n") is True and g.read_text() == "other\n"
    assert [p.name for p in tmp_path.iterdir()] == ["p.py.out"]  # no temp file left behind


def test_a_long_diff_is_cut_short(tmp_path: Path) -> None:
    golden_path = tmp_path / "main.py.out"
    golden_path.write_text("".join(f"line {i}\n" for i in range(1000)))
    (problem,) = compare(golden_path, "".join(f"other {i}\n" for i in range(1000)))
    assert len(problem.details) == MAX_DIFF_LINES + 1
    assert problem.details[-1].endswith("more diff lines not shown")


def test_a_generated_file_gets_a_plain_files_mode_and_a_failed_write_leaves_no_temporary(tmp_path: Path) -> None:
    mask = os.umask(0o022)
    try:
        write_atomic(tmp_path / "page.md", "text\n")
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / "page.md").stat().st_mode) == 0o644
    (tmp_path / "folder" / "inside").mkdir(parents=True)  # os.replace cannot put a file over it
    with pytest.raises(OSError):
        write_atomic(tmp_path / "folder", "text\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "page.md"]
