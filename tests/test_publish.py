"""Nothing lost: an interrupted update-outputs leaves every golden file old or new, and a failed
build never replaces site/."""
from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, SNIPPETS
from verified_docs.publish import swap_in


def test_update_outputs_killed_mid_run_leaves_each_golden_old_or_new(tmp_path: Path) -> None:
    shutil.copytree(SNIPPETS / "suspension/pitfall-rerun", tmp_path / "snippets/suspension/pitfall-rerun")
    shutil.copytree(SNIPPETS / "suspension/answer-later", tmp_path / "snippets/suspension/answer-later")
    goldens = sorted((tmp_path / "snippets").rglob("*.out"))
    new = {g: g.read_text() for g in goldens}
    old = {g: "stale output\n" for g in goldens}
    for delay in (0.8, 1.6, 2.4):
        for g in goldens:
            g.write_text(old[g])
        proc = subprocess.Popen([sys.executable, "-m", "verified_docs", "verify", "--update-outputs", "--root",
                                 str(tmp_path), "--ledger", str(tmp_path / "ledger.json"), "--jobs", "1"],
                                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        states = {g: g.read_text() for g in goldens}
        assert all(states[g] in (old[g], new[g]) for g in goldens), f"after {delay}s: a golden file was cut short"


def test_a_failed_build_never_replaces_the_published_site(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("old site")
    half = tmp_path / "site.partial"
    half.mkdir()
    (half / "assets").mkdir()  # a build that died before writing its pages
    with pytest.raises(FileNotFoundError, match="not a built site"):
        swap_in(half, site)
    assert (site / "index.html").read_text() == "old site"
    (half / "index.html").write_text("new site")
    swap_in(half, site)
    assert (site / "index.html").read_text() == "new site" and not half.exists()
    assert not (tmp_path / "site.old").exists()
