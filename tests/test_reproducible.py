"""One commit, one site: the build dates the site with the last commit's time, so building the
same commit on two different days gives byte-identical trees, the sitemaps included. The clock
is faked for the whole build process (``tests/samples/fake_clock``), not through
``SOURCE_DATE_EPOCH``, which the build must set by itself."""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, SAMPLES
from verified_docs.site.reproducible import set_source_date_epoch

FAKE_CLOCK = SAMPLES / "fake_clock"
COMMITTED = 1767323045  # 2026-01-02T03:04:05Z


def whole_project(root: Path) -> Path:
    """A copy of this checkout's project (every file git lists: tracked, and untracked but not
    ignored, so the tree under test is the working tree) committed once at ``COMMITTED``."""
    listed = (
        subprocess.run(
            ["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():  # a tracked file deleted in the working tree is not copied
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, root / name)
    git = {
        **os.environ,
        "GIT_AUTHOR_DATE": f"@{COMMITTED} +0000",
        "GIT_COMMITTER_DATE": f"@{COMMITTED} +0000",
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "one commit"]):
        subprocess.run(["git", "-C", str(root), *cmd], check=True, env=git, capture_output=True)
    return root


def fake_clock_env(start: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    return {**env, "PYTHONPATH": str(FAKE_CLOCK), "FAKE_CLOCK_START": str(start)}


def tree(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def _clock_reads(day: int) -> list[str]:
    """What a process under the fake clock at ``day`` reads as today's date, three ways."""
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import datetime, time; print(datetime.date.today(), "
            "time.strftime('%Y-%m-%d'), time.strftime('%Y-%m-%d', time.gmtime()))",
        ],
        env=fake_clock_env(day),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()


# First, so it does not share the cores with the browsers' early reading: under load a scenario
# with a deadline (run-statuses) failed in one of the two builds.
@pytest.mark.first
def test_the_same_commit_built_on_two_dates_gives_byte_identical_sites(tmp_path: Path) -> None:
    # The whole site, every example verified again on each date (--force): nothing a page shows
    # may depend on the day it was built. The two dates build two copies of the one commit at
    # the same time (they share nothing), so the test waits for one build, not two in a row.
    days = {1790000000: "2026-09-21", 1800000000: "2027-01-15"}  # both after the commit
    builds = []
    for day, date in days.items():
        assert _clock_reads(day) == [date] * 3  # the fake clock works
        root = whole_project(tmp_path / f"project-{date}")
        builds.append(
            (
                root,
                subprocess.Popen(
                    [sys.executable, "-m", "verified_docs", "build", "--root", str(root), "--force"],
                    cwd=root,
                    env=fake_clock_env(day),
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                ),
            )
        )
    sites = []
    for root, build in builds:
        try:
            stdout, stderr = build.communicate(timeout=400)
        finally:
            build.kill()
        assert build.returncode == 0, stdout + stderr
        assert f"[build] SOURCE_DATE_EPOCH={COMMITTED} (the last commit's time)" in stdout
        assert "without a network namespace" not in stderr  # the whole build ran in one
        sites.append(tree(root / "site"))
    first, second = sites
    assert "sitemap.xml" in first and "sitemap.xml.gz" in first
    assert b"<lastmod>2026-01-02</lastmod>" in first["sitemap.xml"]
    assert gzip.decompress(first["sitemap.xml.gz"]) == first["sitemap.xml"]
    assert sorted(first) == sorted(second)
    assert [name for name in first if first[name] != second[name]] == []


def test_a_source_date_epoch_the_caller_set_is_kept(tmp_path: Path) -> None:
    env = {"SOURCE_DATE_EPOCH": "1700000000"}
    assert set_source_date_epoch(tmp_path, env) == "SOURCE_DATE_EPOCH=1700000000 (set by the caller)"
    assert env == {"SOURCE_DATE_EPOCH": "1700000000"}
    env = {}
    assert set_source_date_epoch(tmp_path / "not-a-checkout", env).startswith("SOURCE_DATE_EPOCH not set and ")
    assert env == {}
