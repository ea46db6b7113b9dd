"""Nothing left behind: a run, and a run killed with its whole process group, leave the
temporary folder they were given and the repository root as they found them.

Each test gives its child a temporary folder of its own (``TMPDIR``) and compares only that
folder and the repository root's own entries: never the machine's /tmp, which other processes
change at any moment."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from conftest import ROOT, SNIPPETS, gone
from verified_docs import tmproot

HANG = """\
import os, subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
started = os.path.join(os.environ["TMPDIR"], "hang-started")
with open(started + ".tmp", "w") as f:
    f.write(f"{os.getpid()} {child.pid}")
os.replace(started + ".tmp", started)  # the event the test waits for, written whole
time.sleep(120)
"""
HANG_YAML = """\
title: A program that hangs until it is killed
runs:
  - name: hangs
    programs: {python: hang.py}
    timeout: 60
    model: []
    expect: {exit_code: 0, model_requests: 0}
"""


def empty_when_settled(folder: Path, seconds: float = 10.0) -> list[str]:
    """What is left in ``folder`` once it is empty or ``seconds`` passed (a killed run's watcher
    removes its root a moment after the kill)."""
    deadline = time.monotonic() + seconds
    while True:
        left = sorted(p.name for p in folder.iterdir())
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def own_tmpdir() -> Path:
    # Short: the warm worker's socket path under it must stay below 108 bytes.
    return Path(tempfile.mkdtemp(prefix="t-"))


def verify_command(root: Path, only: str) -> list[str]:
    return [sys.executable, "-m", "verified_docs", "verify", "--root", str(root), "--only", only,
            "--ledger", str(root / "ledger.json"), "--cache", str(root / "cache"), "--jobs", "1"]


def test_a_run_leaves_its_tmpdir_and_the_repository_root_as_found(tmp_path: Path) -> None:
    shutil.copytree(SNIPPETS / "suspension/approval-gate", tmp_path / "snippets/suspension/approval-gate")
    tmp, root_before = own_tmpdir(), sorted(os.listdir(ROOT))
    done = subprocess.run(verify_command(tmp_path, "suspension/approval-gate"), cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, "TMPDIR": str(tmp)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert empty_when_settled(tmp) == []
    assert sorted(os.listdir(ROOT)) == root_before


def test_a_run_killed_with_its_process_group_leaves_nothing_running_and_nothing_in_its_tmpdir(tmp_path: Path) -> None:
    folder = tmp_path / "snippets" / "broken" / "hang"
    folder.mkdir(parents=True)
    (folder / "hang.py").write_text(HANG)
    (folder / "scenario.yaml").write_text(HANG_YAML)
    tmp, root_before = own_tmpdir(), sorted(os.listdir(ROOT))
    proc = subprocess.Popen(verify_command(tmp_path, "broken/hang"), cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env={**os.environ, "TMPDIR": str(tmp)}, start_new_session=True)
    deadline = time.monotonic() + 60
    marker = None
    while marker is None and proc.poll() is None and time.monotonic() < deadline:
        marker = next(tmp.rglob("hang-started"), None)
        time.sleep(0.02)
    assert marker is not None, f"the program never reported it had started (exit {proc.poll()})"
    snippet, child = (int(x) for x in marker.read_text().split())
    os.killpg(proc.pid, signal.SIGKILL)  # the build's whole group, mid-run
    proc.wait()
    assert gone(snippet), f"the hanging snippet {snippet} outlived the killed run"
    assert gone(child), f"the snippet's child {child} outlived the killed run"
    assert empty_when_settled(tmp) == []
    assert sorted(os.listdir(ROOT)) == root_before


def test_the_run_root_holds_every_temporary_folder_and_is_what_children_get() -> None:
    root = tmproot.enter()  # the session's, made by conftest; a second call returns it
    assert tmproot.enter() == root and root.name.startswith(tmproot.PREFIX)
    assert tempfile.gettempdir() == str(root) == os.environ["TMPDIR"]
    from verified_docs.runner.languages import environment

    env = environment(base_url="", api_key="", trace_path=Path(os.devnull), workdir=Path("/w"), timeout_s=1)
    assert env["TMPDIR"] == str(root)
