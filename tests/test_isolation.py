"""Scenarios verified concurrently, in shuffled order, behave exactly as in the main run, and
a golden file being rewritten is never seen half-written, even when the writer is killed."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import ROOT, SNIPPETS, Verification
from verified_docs.files import remove_stale_temporaries
from verified_docs.verify.scenarios import verify_all


def test_shuffled_parallel_runs_give_the_same_verdicts(verification: Verification) -> None:
    # Cross-talk between concurrent scenarios (a shared port, working dir or environment) would
    # change some run's evidence (its request count, the tool results its model was shown).
    rng = random.Random(20261201)
    names = sorted(verification.scenarios)
    for attempt in range(2):
        chosen = rng.sample(names, 4)
        again = verify_all([verification.scenarios[n] for n in chosen], jobs=4)
        for name in chosen:
            before = [(v.run.name, v.passed) for v in verification.verdicts[name]]
            after = [(v.run.name, v.passed) for v in again[name]]
            assert after == before, f"attempt {attempt}: {name} changed verdicts under load"


WRITER = """
import sys
from pathlib import Path
from verified_docs.files import write_atomic
target, size = Path(sys.argv[1]), int(sys.argv[2])
write_atomic(target, "new\\n" * size)
print("wrote once", flush=True)  # from here on it is always mid-rewrite
while True:
    write_atomic(target, "new\\n" * size)
"""


def test_killed_writer_never_leaves_a_partial_golden_file(tmp_path: Path) -> None:
    target = tmp_path / "main.py.out"
    old = "old\n" * 200_000
    allowed = {old, "new\n" * 200_000}
    for attempt in range(6):
        target.write_text(old)
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(target), "200000"], stdout=subprocess.PIPE, start_new_session=True
        )
        # Synchronised on the writer's own report that a rewrite completed; the varied delay
        # after it only moves the kill around within the rewrites that follow without pause.
        assert proc.stdout.readline() == b"wrote once\n", "the writer died before its first rewrite"
        time.sleep(attempt * 0.01)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        assert proc.returncode == -signal.SIGKILL, f"attempt {attempt}: the writer was not killed mid-rewrite"
        assert target.read_text() in allowed, f"attempt {attempt}: partial golden file"
    # A kill before the rename leaves the writer's named temporary file: only names the sweep
    # knows as its own are left, and the sweep update-outputs runs removes every one of them.
    leftovers = sorted(p for p in tmp_path.iterdir() if p.name != "main.py.out")
    assert all(p.name.startswith(".main.py.out.") and p.name.endswith(".tmp") for p in leftovers), leftovers
    for p in leftovers:
        os.utime(p, (time.time() - 60, time.time() - 60))  # older than a write in progress could be
    assert sorted(remove_stale_temporaries(tmp_path)) == leftovers
    assert [p.name for p in tmp_path.iterdir()] == ["main.py.out"]


def test_update_outputs_removes_the_temporary_files_an_interrupted_rewrite_left(tmp_path: Path) -> None:
    shutil.copytree(SNIPPETS / "suspension/pitfall-rerun", tmp_path / "snippets/suspension/pitfall-rerun")
    stale = tmp_path / "snippets/suspension/pitfall-rerun/.main.py.out.k0a1b_2c.tmp"
    fresh = tmp_path / "snippets/suspension/pitfall-rerun/.other.py.out.3d4e_5f6.tmp"
    stale.write_text("half")
    os.utime(stale, (time.time() - 60, time.time() - 60))
    fresh.write_text("a write in progress")
    os.utime(fresh, (time.time() + 3600, time.time() + 3600))  # young whatever the load
    mine = tmp_path / "snippets/suspension/pitfall-rerun/node_modules/.cache.0a1b2c3d.tmp"
    mine.parent.mkdir()
    mine.write_text("a tool's own")
    os.utime(mine, (time.time() - 60, time.time() - 60))
    done = subprocess.run(
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
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[0] == (
        "removed snippets/suspension/pitfall-rerun/.main.py.out.k0a1b_2c.tmp (left by an interrupted rewrite)"
    )
    assert not stale.exists() and fresh.exists() and mine.exists()
    ignored = subprocess.run(
        [
            "git",
            "-C",
            str(ROOT),
            "check-ignore",
            "-q",
            "--no-index",
            "snippets/suspension/pitfall-rerun/.main.py.out.k0a1b_2c.tmp",
        ]
    )
    assert ignored.returncode == 0, "git add -A would commit such a leftover"
