"""Nothing left behind: a run, and a run killed with its whole process group, leave the
temporary folder they were given and the repository root as they found them.

Each test gives its child a temporary folder of its own (``TMPDIR``) and compares only that
folder and the repository root's own entries: never the machine's /tmp, which other processes
change at any moment. To check that nothing ignores ``TMPDIR`` and writes to /tmp or /dev/shm
all the same, one test runs its child in a mount namespace of its own, where /tmp and /dev/shm
are empty folders only that child sees."""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from conftest import ROOT, SNIPPETS, gone
from verified_docs.run import tmproot

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
    return Path(tempfile.mkdtemp(prefix="t-"))


def hang_started(proc: subprocess.Popen, tmp: Path) -> tuple[int, int]:
    """The pids of the hanging program and its child, once the program reports (HANG's marker
    file, somewhere under ``tmp``) that both run; fails if ``proc`` ends or 60 s pass first."""
    deadline = time.monotonic() + 60
    marker = None
    while marker is None and proc.poll() is None and time.monotonic() < deadline:
        marker = next((p for p in _walk(tmp) if p.name == "hang-started"), None)
        time.sleep(0.02)
    assert marker is not None, f"the program never reported it had started (exit {proc.poll()})"
    snippet, child = (int(x) for x in marker.read_text().split())
    return snippet, child


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (children, theirs, ...), from /proc's children lists: only
    what this test started, whatever session or process group each one moved to."""
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                kids = [int(x) for x in (task / "children").read_text().split()]
            except (FileNotFoundError, ProcessLookupError):
                continue
            found += kids
            todo += kids
    return sorted(set(found))


def start_time(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def verify_command(root: Path, only: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "verified_docs",
        "verify",
        "--root",
        str(root),
        "--only",
        only,
        "--ledger",
        str(root / "ledger.json"),
        "--cache",
        str(root / "cache"),
        "--jobs",
        "1",
    ]


def test_a_run_leaves_its_tmpdir_and_the_repository_root_as_found(tmp_path: Path) -> None:
    shutil.copytree(SNIPPETS / "suspension/approval-gate", tmp_path / "snippets/suspension/approval-gate")
    tmp, root_before = own_tmpdir(), sorted(os.listdir(ROOT))
    done = subprocess.run(
        verify_command(tmp_path, "suspension/approval-gate"),
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp)},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert empty_when_settled(tmp) == []
    assert sorted(os.listdir(ROOT)) == root_before


def test_a_run_killed_with_its_process_group_leaves_nothing_running_and_nothing_in_its_tmpdir(tmp_path: Path) -> None:
    folder = tmp_path / "snippets" / "broken" / "hang"
    folder.mkdir(parents=True)
    (folder / "hang.py").write_text(HANG)
    (folder / "scenario.yaml").write_text(HANG_YAML)
    tmp, root_before = own_tmpdir(), sorted(os.listdir(ROOT))
    proc = subprocess.Popen(
        verify_command(tmp_path, "broken/hang"),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "TMPDIR": str(tmp)},
        start_new_session=True,
    )
    snippet, child = hang_started(proc, tmp)
    started = descendants(proc.pid)  # the warm worker, supervisors, the watcher, the snippet
    stamps = {pid: start_time(pid) for pid in started}  # a pid reused after the kill is not a survivor
    assert {snippet, child} <= set(started), (snippet, child, started)
    os.killpg(proc.pid, signal.SIGKILL)  # the build's whole group, mid-run
    proc.wait()
    assert gone(snippet), f"the hanging snippet {snippet} outlived the killed run"
    assert gone(child), f"the snippet's child {child} outlived the killed run"
    survivors = [pid for pid, since in stamps.items() if not gone(pid) and start_time(pid) == since]
    assert survivors == [], f"of the {len(started)} processes the run had started, {survivors} outlived it"
    assert empty_when_settled(tmp) == []
    assert sorted(os.listdir(ROOT)) == root_before


def test_try_killed_mid_run_leaves_no_program_running(tmp_path: Path) -> None:
    # `try` starts programs cold, in sessions of their own: the run's watcher kills their groups.
    folder = tmp_path / "snippets" / "broken" / "hang"
    folder.mkdir(parents=True)
    (folder / "hang.py").write_text(HANG)
    (folder / "scenario.yaml").write_text(HANG_YAML)
    tmp = own_tmpdir()
    proc = subprocess.Popen(
        [sys.executable, "-m", "verified_docs", "try", "broken/hang", "--root", str(tmp_path)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "TMPDIR": str(tmp)},
        start_new_session=True,
    )
    snippet, child = hang_started(proc, tmp)
    os.killpg(proc.pid, signal.SIGKILL)  # try's own group: the program is not in it
    proc.wait()
    assert gone(snippet), f"the program {snippet} outlived the killed try"
    assert gone(child), f"the program's child {child} outlived the killed try"
    assert empty_when_settled(tmp) == []


def test_the_run_root_holds_every_temporary_folder_and_is_what_children_get() -> None:
    root = tmproot.enter()  # the session's, made by conftest; a second call returns it
    assert tmproot.enter() == root and root.name.startswith(tmproot.PREFIX)
    assert tempfile.gettempdir() == str(root) == os.environ["TMPDIR"]
    from verified_docs.run.languages import environment

    env = environment(base_url="", api_key="", trace_path=Path(os.devnull), workdir=Path("/w"), timeout_s=1)
    assert env["TMPDIR"] == str(root)


RUN_THAT_WAITS = """
import sys, time
from verified_docs.run import tmproot
print(tmproot.enter(), flush=True)
time.sleep(120)
"""


def test_a_root_whose_owner_is_gone_is_removed_by_the_next_run(tmp_path: Path) -> None:
    # A cancelled CI job kills the run and its watcher at once; the next run cleans up after it.
    tmp = own_tmpdir()
    env = {**os.environ, "TMPDIR": str(tmp)}
    killed = subprocess.Popen(
        [sys.executable, "-c", RUN_THAT_WAITS], cwd=ROOT, stdout=subprocess.PIPE, text=True, env=env
    )
    orphan = Path(killed.stdout.readline().strip())
    (watcher,) = descendants(killed.pid)
    os.kill(watcher, signal.SIGKILL)  # the watcher first, or it would remove the root itself
    assert gone(watcher)
    killed.kill()
    killed.wait()
    killed.stdout.close()
    assert (orphan / tmproot.LOCK_FILE).is_file()
    alive = tmp / f"{tmproot.PREFIX}alive"  # a run that is still going: it holds its lock
    alive.mkdir()
    held = os.open(alive / tmproot.LOCK_FILE, os.O_CREAT | os.O_RDWR)
    fcntl.flock(held, fcntl.LOCK_EX)
    unowned = tmp / f"{tmproot.PREFIX}unowned"  # made by an older version (no lock file): kept
    unowned.mkdir()
    (unowned / ".owner").write_text("1 12345 pid:[1]")
    old = time.time() - 3600
    os.utime(unowned, (old, old))
    (tmp / "verified-docs-other").mkdir()  # not a run root: never touched
    try:
        done = subprocess.run(
            [sys.executable, "-c", "from verified_docs.run import tmproot; print(tmproot.enter().name)"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
        )
    finally:
        os.close(held)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp.iterdir()) == sorted([alive.name, unowned.name, "verified-docs-other"])


# Run in a fresh mount namespace (util-linux unshare): cover /dev/shm and /tmp with the given
# empty folders, then bring back at their own paths the folders under /tmp the command needs
# (this checkout, its environment, the interpreter), through descriptors opened before /tmp was
# covered: mount(2) follows such a /proc/self/fd link to the folder itself, mount(8) would not.
PRIVATE_TMP = """
import ctypes, os, sys
tmp, shm, keep, command = sys.argv[1], sys.argv[2], [k for k in sys.argv[3].split(os.pathsep) if k], sys.argv[4:]
libc = ctypes.CDLL(None, use_errno=True)
def bind(source, target):
    if libc.mount(source.encode(), target.encode(), None, 4096 | 16384, None) != 0:  # MS_BIND | MS_REC
        sys.exit(f"mount --bind {source} {target}: {os.strerror(ctypes.get_errno())}")
fds = {path: os.open(path, os.O_PATH | os.O_DIRECTORY) for path in keep}
bind(shm, "/dev/shm")
bind(tmp, "/tmp")
for path, fd in fds.items():
    os.makedirs(path, exist_ok=True)
    bind(f"/proc/self/fd/{fd}", path)
env = {k: v for k, v in os.environ.items() if k != "TMPDIR"}
os.execvpe(command[0], command, env)
"""


def kept_under_tmp() -> list[str]:
    """The folders under /tmp the child needs (outermost only): this checkout, the tests'
    environment and the interpreter's installation, when any of them lives there."""
    wanted = {
        ROOT.resolve(),
        Path(sys.prefix).resolve(),
        Path(sys.base_prefix).resolve(),
        Path(sys.executable).resolve().parent,
    }
    under = sorted(p for p in wanted if Path("/tmp") in p.parents)
    return [str(p) for p in under if not any(q in p.parents for q in under)]


def in_private_tmp(command: list[str], tmp: Path, shm: Path) -> list[str]:
    """``command`` with TMPDIR unset, in a mount namespace where /tmp is ``tmp`` and /dev/shm is
    ``shm`` (a user namespace too when not root)."""
    user = [] if os.geteuid() == 0 else ["--map-root-user"]
    return [
        "unshare",
        "--mount",
        "--propagation",
        "private",
        *user,
        sys.executable,
        "-S",
        "-c",
        PRIVATE_TMP,
        str(tmp),
        str(shm),
        os.pathsep.join(kept_under_tmp()),
        *command,
    ]


def _walk(top: Path) -> list[Path]:
    """Every folder and file below ``top``. Unlike ``Path.rglob``, which raised
    FileNotFoundError on a fresh clone under load, a folder the watcher removes while it is
    listed is skipped (os.walk ignores a folder it can no longer read): settling is that."""
    found: list[Path] = []
    for folder, dirs, files in os.walk(top):
        found += [Path(folder, name) for name in dirs + files]
    return found


def left_in_private_tmp(tmp: Path) -> list[str]:
    """What is in ``tmp`` besides the empty mount points :data:`PRIVATE_TMP` made for the kept
    folders (and their parents), once settled."""
    points = set()
    for kept in kept_under_tmp():
        rel = Path(kept).relative_to("/tmp")
        points |= {rel, *(q for q in rel.parents if q != Path("."))}
    deadline = time.monotonic() + 10
    while True:
        left = sorted(
            p.relative_to(tmp).as_posix() for p in _walk(tmp) if not (p.relative_to(tmp) in points and p.is_dir())
        )
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def test_a_run_and_a_killed_run_leave_the_machines_tmp_and_shm_as_found() -> None:
    assert shutil.which("unshare"), "util-linux unshare is needed: apt-get install util-linux"
    # Outside /tmp (the child's /tmp hides it): in the checkout's build folder, removed at the end.
    (ROOT / "build").mkdir(exist_ok=True)
    base = Path(tempfile.mkdtemp(prefix="test-private-tmp-", dir=ROOT / "build"))
    try:
        project, tmp, shm = base / "project", base / "tmp", base / "shm"
        tmp.mkdir()
        shm.mkdir()
        shutil.copytree(SNIPPETS / "suspension/approval-gate", project / "snippets/suspension/approval-gate")
        folder = project / "snippets" / "broken" / "hang"
        folder.mkdir(parents=True)
        (folder / "hang.py").write_text(
            HANG.replace('os.environ["TMPDIR"]', "tempfile.gettempdir()").replace("import os,", "import tempfile, os,")
        )
        (folder / "scenario.yaml").write_text(HANG_YAML)
        done = subprocess.run(
            in_private_tmp(verify_command(project, "suspension/approval-gate"), tmp, shm),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert left_in_private_tmp(tmp) == [] and empty_when_settled(shm) == []
        proc = subprocess.Popen(
            in_private_tmp(verify_command(project, "broken/hang"), tmp, shm),
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        snippet, child = hang_started(proc, tmp)
        os.killpg(proc.pid, signal.SIGKILL)  # unshare, the build and its group, mid-run
        proc.wait()
        assert gone(snippet) and gone(child)
        assert left_in_private_tmp(tmp) == [] and empty_when_settled(shm) == []
    finally:
        shutil.rmtree(base, ignore_errors=True)
