"""Bad environment, one line: an unusable TMPDIR or uv cache stops everything at once, with one
line naming the variable and the fix (not 179 browser-test errors, not uv's mid-install error)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT
from verified_docs.run import tmproot


def test_a_missing_tmpdir_is_one_line_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "gone"
    assert tmproot.tmpdir_problem({"TMPDIR": str(missing)}) == (
        f"TMPDIR={missing}: no such directory; create it, point TMPDIR at a writable directory, or unset TMPDIR"
    )
    (tmp_path / "file").write_text("")
    assert tmproot.tmpdir_problem({"TMPDIR": str(tmp_path / "file")}).startswith(
        f"TMPDIR={tmp_path / 'file'}: not a directory;"
    )
    assert tmproot.tmpdir_problem({"TMPDIR": str(tmp_path)}) is None
    assert tmproot.tmpdir_problem({}) is None


def test_an_unwritable_uv_cache_is_one_line_naming_the_variable(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    bad = tmp_path / "file" / "uv"  # under a regular file: unwritable even for root
    assert tmproot.uv_cache_problem({"UV_CACHE_DIR": str(bad)}) == (
        f"UV_CACHE_DIR={bad} cannot be written: its parent {tmp_path / 'file'} (not a directory); "
        "set UV_CACHE_DIR to a writable directory (or UV_NO_CACHE=1)"
    )
    assert tmproot.uv_cache_problem({"HOME": str(tmp_path / "file")}) == (
        f"the default uv cache={tmp_path / 'file' / '.cache' / 'uv'} cannot be written: its parent "
        f"{tmp_path / 'file'} (not a directory); set UV_CACHE_DIR to a writable directory (or UV_NO_CACHE=1)"
    )
    assert tmproot.uv_cache_problem({"UV_CACHE_DIR": str(tmp_path / "new" / "uv")}) is None  # made on first use
    assert tmproot.uv_cache_problem({"UV_CACHE_DIR": str(bad), "UV_NO_CACHE": "1"}) is None


def run_with_tmpdir(tmpdir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "TMPDIR": str(tmpdir)},
        timeout=120,
    )


def test_the_build_with_a_missing_tmpdir_stops_at_once_with_one_line(tmp_path: Path) -> None:
    done = run_with_tmpdir(tmp_path / "gone", "-m", "verified_docs", "build")
    assert done.returncode == 2
    assert done.stderr == (
        f"verified_docs: TMPDIR={tmp_path / 'gone'}: no such directory; create it, point TMPDIR "
        "at a writable directory, or unset TMPDIR\n"
    )
    assert done.stdout == ""


def test_the_test_suite_with_a_missing_tmpdir_stops_at_once_with_one_line(tmp_path: Path) -> None:
    # Before: every browser test errored at setup with Playwright's ENOENT (179 times).
    done = run_with_tmpdir(tmp_path / "gone", "-m", "pytest", "tests/browser", "-q", "-p", "no:cacheprovider")
    assert done.returncode == 4  # pytest's usage error
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert lines == [
        f"Exit: TMPDIR={tmp_path / 'gone'}: no such directory; create it, point TMPDIR at a "
        "writable directory, or unset TMPDIR"
    ]
