"""One commit, one site: the build dates the site with the last commit's time, so building the
same commit on two different days gives byte-identical trees, the sitemaps included."""
from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, SAMPLES, SNIPPETS
from verified_docs.reproducible import set_source_date_epoch

FAKE_CLOCK = SAMPLES / "fake_clock"
COMMITTED = 1767323045  # 2026-01-02T03:04:05Z
PAGE = '# Page\n\n<!-- verified-example scenario="suspension/approval-gate" program="approval_gate" section="tool" -->\n'


def small_project(root: Path) -> Path:
    shutil.copytree(SNIPPETS / "suspension/approval-gate", root / "snippets/suspension/approval-gate")
    (root / "docs").mkdir()
    (root / "docs/index.md").write_text(PAGE)
    shutil.copy(ROOT / "conftest.py", root / "conftest.py")
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    config = (ROOT / "mkdocs.yml").read_text()
    config = config[: config.index("nav:")] + "nav:\n  - index.md\n" + config[config.index("theme:"):]
    (root / "mkdocs.yml").write_text(config.replace("verified_docs/mkdocs_hook.py", str(ROOT / "verified_docs/mkdocs_hook.py")))
    git = {**os.environ, "GIT_AUTHOR_DATE": f"@{COMMITTED} +0000", "GIT_COMMITTER_DATE": f"@{COMMITTED} +0000",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.invalid"}
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "one commit"]):
        subprocess.run(["git", "-C", str(root), *cmd], check=True, env=git)
    return root


def fake_clock_env(start: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    return {**env, "PYTHONPATH": str(FAKE_CLOCK), "FAKE_CLOCK_START": str(start)}


def tree(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def test_the_same_commit_built_on_two_dates_gives_byte_identical_sites(tmp_path: Path) -> None:
    root = small_project(tmp_path / "project")
    sites = []
    for day in (1790000000, 1800000000):  # 2026-09-21 and 2027-01-15, both after the commit
        clock = subprocess.run([sys.executable, "-c", "import datetime; print(datetime.date.today())"],
                               env=fake_clock_env(day), capture_output=True, text=True, check=True).stdout.strip()
        assert clock == {1790000000: "2026-09-21", 1800000000: "2027-01-15"}[day]  # the fake clock works
        done = subprocess.run([sys.executable, "-m", "verified_docs", "build", "--root", str(root), "--force"],
                              cwd=root, env=fake_clock_env(day), capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"[build] SOURCE_DATE_EPOCH={COMMITTED} (the last commit's time)" in done.stdout
        assert "without a network namespace" not in done.stderr  # the whole build ran in one
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
