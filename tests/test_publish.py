"""Nothing lost: an interrupted update-outputs leaves every golden file old or new, and a failed
build never replaces site/."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, SNIPPETS
from verified_docs.site.publish import _exchange, swap_in, sync_into


def group_gone(pgid: int) -> bool:
    """True once no process of the process group ``pgid`` is left (polled for up to 5 s)."""
    for _ in range(50):
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def test_update_outputs_killed_mid_run_leaves_each_golden_old_or_new(tmp_path: Path) -> None:
    shutil.copytree(SNIPPETS / "suspension/pitfall-rerun", tmp_path / "snippets/suspension/pitfall-rerun")
    shutil.copytree(SNIPPETS / "suspension/answer-later", tmp_path / "snippets/suspension/answer-later")
    goldens = sorted((tmp_path / "snippets").rglob("*.out"))
    new = {g: g.read_text() for g in goldens}
    old = {g: "stale output\n" for g in goldens}
    # The kill lands right after the program reports its first, second, third rewrite (an
    # `updated <file>` line), never after a guessed delay; it must land before the last one.
    for after in range(1, len(goldens)):
        for g in goldens:
            g.write_text(old[g])
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "verified_docs",
                "verify",
                "--update-outputs",
                "--root",
                str(tmp_path),
                "--ledger",
                str(tmp_path / "ledger.json"),
                "--jobs",
                "1",
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=True,
        )
        reported = []
        for line in proc.stdout:
            if line.startswith("updated "):
                reported.append(line.split(" ", 1)[1].strip())
                if len(reported) == after:
                    os.killpg(proc.pid, signal.SIGKILL)  # the whole group (snippets run in sessions of their own)
                    break
        proc.wait()
        proc.stdout.close()
        assert len(reported) == after, f"the run ended after {len(reported)} rewrite(s), before rewrite {after}"
        assert group_gone(proc.pid), f"after the kill at rewrite {after}: a process of its group survived"
        states = {g: g.read_text() for g in goldens}
        assert all(states[g] in (old[g], new[g]) for g in goldens), (
            f"after rewrite {after}: a golden file was cut short"
        )
        rewritten = [g for g in goldens if states[g] == new[g]]
        assert len(rewritten) >= after, f"{after} rewrites reported, {len(rewritten)} on disk"
        assert len(rewritten) < len(goldens), f"the kill at rewrite {after} landed too late: every golden was rewritten"


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


def test_a_publish_killed_midway_leaves_the_old_tree_under_build_and_the_next_removes_it(tmp_path: Path) -> None:
    site, build = tmp_path / "site", tmp_path / "build"
    for n in range(4000):  # an old tree big enough that removing it takes a while
        (site / f"d{n // 100}").mkdir(parents=True, exist_ok=True)
        (site / f"d{n // 100}" / f"{n}.html").write_text("old")
    (site / "index.html").write_text("old site")
    (build / "site.partial").mkdir(parents=True)
    (build / "site.partial" / "index.html").write_text("new site")
    proc = subprocess.Popen(
        [sys.executable, "-m", "verified_docs.site.publish", str(build / "site.partial"), str(site)],
        cwd=ROOT,
        start_new_session=True,
    )
    # The event: the new tree is in place, so the old one is being removed (under build/). All
    # the while, site/ is there: the publish exchanges the two trees in one step.
    while proc.poll() is None and not (site / "index.html").read_text() == "new site":
        time.sleep(0.001)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the publish finished before the kill: the test proved nothing"
    assert (site / "index.html").read_text() == "new site"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build", "site"]  # no site.old beside site/
    assert (build / "site.old").is_dir()  # cut short, where the next publish looks
    (build / "site.partial").mkdir()
    (build / "site.partial" / "index.html").write_text("newer site")
    swap_in(build / "site.partial", site)
    assert (site / "index.html").read_text() == "newer site"
    assert sorted(p.name for p in build.iterdir()) == []


LOOKER = """
import os, sys
path, stop = sys.argv[1], sys.argv[2]
seen, misses = set(), 0
print("looking", flush=True)
while not os.path.exists(stop):
    try:
        with open(path) as f:
            seen.add(f.read())
    except FileNotFoundError:
        misses += 1
print(len(seen), misses)
"""


def test_a_reader_looking_while_the_site_is_replaced_always_finds_one(tmp_path: Path) -> None:
    # What two plain renames (the old tree aside, the new one in) cannot promise: between them
    # there is no site/, and a page the preview serves at that moment is missing.
    site, build, stop = tmp_path / "site", tmp_path / "build", tmp_path / "stop"
    site.mkdir()
    (site / "index.html").write_text("site 0")
    build.mkdir()
    looker = subprocess.Popen(
        [sys.executable, "-c", LOOKER, str(site / "index.html"), str(stop)], stdout=subprocess.PIPE, text=True
    )
    assert looker.stdout.readline() == "looking\n"
    for n in range(1, 201):
        (build / "site.partial").mkdir()
        (build / "site.partial" / "index.html").write_text(f"site {n}")
        swap_in(build / "site.partial", site)
    stop.write_text("")
    seen, misses = (int(x) for x in looker.communicate(timeout=60)[0].split())
    assert seen > 1, "the reader looked only before or after the publishes: the test proved nothing"
    assert misses == 0, f"site/index.html was missing {misses} times while {seen} of the 201 sites were seen"


def test_the_two_trees_are_exchanged_in_one_step_here(tmp_path: Path) -> None:
    # Where this fails, publishing falls back to renames, with a moment without site/.
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "index.html").write_text("a")
    (b / "index.html").write_text("b")
    assert _exchange(a, b) is True
    assert (a / "index.html").read_text() == "b" and (b / "index.html").read_text() == "a"


def test_sync_copies_only_changed_bytes_and_gives_rewritten_same_bytes_the_new_time(tmp_path: Path) -> None:
    """sync_into: a file written again with the same bytes (a new time) is not copied but takes
    the new time; a file of the same size with other bytes is copied; one the build lacks goes."""
    new, served = tmp_path / "new", tmp_path / "served"
    new.mkdir()
    for name, text in {"index.html": "home", "same.html": "same", "edited.html": "aaaa", "gone.html": "x"}.items():
        (new / name).write_text(text)
    assert sync_into(new, served) == 4
    (new / "gone.html").unlink()
    later = time.time_ns() + 5_000_000_000
    for name, text in {"same.html": "same", "edited.html": "bbbb"}.items():
        (new / name).write_text(text)
        os.utime(new / name, ns=(later, later))
    inode = (served / "same.html").stat().st_ino
    assert sync_into(new, served) == 2, "edited.html copied, gone.html removed, same.html kept"
    assert (served / "edited.html").read_text() == "bbbb"
    assert not (served / "gone.html").exists()
    assert (served / "same.html").stat().st_ino == inode, "same bytes: the file was left in place"
    assert (served / "same.html").stat().st_mtime_ns == later
    assert sync_into(new, served) == 0
