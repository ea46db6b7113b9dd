"""One temporary folder per run of the machinery, gone when the run ends, even after a kill.

Every temporary folder of a run (a scenario's working directory, the warm worker's socket
folder, the fences' records, whatever a snippet or a test makes with :mod:`tempfile`) is made
under one root, ``$TMPDIR/verified-docs-run-*``: :func:`enter` points ``TMPDIR`` and
:data:`tempfile.tempdir` at it for this process and every process it starts. The root is
removed when the process exits, and, if it is killed (SIGKILL included, the whole process group
too), by a small watcher in a session of its own that waits for this process's end on a pipe;
the watcher first kills the process groups of programs still running that the run started
itself outside the warm worker (:func:`guard_group`), so that they neither outlive it nor write
into the root (a process that left its group is not reached).
When the watcher dies too (a CI job cancelled with its whole cgroup), nothing holds the root's
``LOCK_FILE`` any more (the run holds an ``flock`` on it while it lives), and the next
:func:`enter` under the same ``TMPDIR`` removes every such root (:func:`remove_orphaned_roots`).
Not ``tempfile.TemporaryDirectory`` alone: a killed run would leave its root, and a killed
``try`` its programs (tests/test_leftovers.py); hence the watcher.

:func:`tmpdir_problem` and :func:`uv_cache_problem` turn an unusable environment into one line
naming the variable and the fix, before anything else runs. Standard library only: the
noxfile loads this module by its path.
"""

from __future__ import annotations

import atexit
import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from verified_docs.errors import VerifiedDocsError

PREFIX = "verified-docs-run-"
WATCHER = Path(__file__).with_name("watcher.py")  # run as a program of its own

_root: Path | None = None
_watcher: subprocess.Popen | None = None
_watcher_lock = threading.Lock()
_started: dict[int, str | None] = {}  # pgid -> its leader's start time, while guarded
# In each root, locked (flock) by the run that made it for as long as it lives.
LOCK_FILE = ".lock"
_lock: int | None = None  # this run's descriptor holding the lock


class EnvironmentProblem(VerifiedDocsError):
    """The environment cannot run the machinery; the message is one line naming the variable
    and what to do about it."""


def _writable_dir_problem(path: str) -> str | None:
    """Why ``path`` is not a directory this process can create files in, or None."""
    target = Path(path)
    if not target.exists():
        return "no such directory"
    if not target.is_dir():
        return "not a directory"
    try:
        fd, probe = tempfile.mkstemp(dir=target, prefix=".verified-docs-probe-")
    except OSError as e:
        return f"cannot create a file in it ({e.strerror or e})"
    os.close(fd)
    os.unlink(probe)
    return None


def tmpdir_problem(env: dict[str, str] | os._Environ = os.environ) -> str | None:
    """One line saying why ``env``'s ``TMPDIR`` is unusable (set, but not an existing
    directory one can write to), or None when it is usable or unset."""
    value = env.get("TMPDIR")
    if not value:
        return None
    why = _writable_dir_problem(value)
    if why is None:
        return None
    return f"TMPDIR={value}: {why}; create it, point TMPDIR at a writable directory, or unset TMPDIR"


def uv_cache_dir(env: dict[str, str] | os._Environ = os.environ) -> Path | None:
    """The folder uv caches downloads in under ``env`` (``UV_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/uv``, else ``~/.cache/uv``), or None when ``UV_NO_CACHE`` is set."""
    if env.get("UV_NO_CACHE") not in (None, "", "0", "false"):
        return None
    if env.get("UV_CACHE_DIR"):
        return Path(env["UV_CACHE_DIR"])
    base = env.get("XDG_CACHE_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".cache")
    return Path(base) / "uv"


def uv_cache_problem(env: dict[str, str] | os._Environ = os.environ) -> str | None:
    """One line saying why uv could not write its cache under ``env``, or None. The cache
    folder need not exist yet: its nearest existing parent must then be a writable directory."""
    folder = uv_cache_dir(env)
    if folder is None:
        return None
    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    why = _writable_dir_problem(str(probe))
    if why is None:
        return None
    where = f"{probe} ({why})" if probe == folder else f"its parent {probe} ({why})"
    name = "UV_CACHE_DIR" if env.get("UV_CACHE_DIR") else "the default uv cache"
    return f"{name}={folder} cannot be written: {where}; set UV_CACHE_DIR to a writable directory (or UV_NO_CACHE=1)"


def enter() -> Path:
    """Make this run's temporary root and point ``TMPDIR`` and :mod:`tempfile` at it (idempotent:
    a second call returns the same root). Raises :class:`EnvironmentProblem` when ``TMPDIR`` is
    unusable. The root is removed at exit, or by the watcher when this process is killed."""
    global _root, _watcher, _lock
    if _root is not None:
        return _root
    problem = tmpdir_problem()
    if problem:
        raise EnvironmentProblem(problem)
    remove_orphaned_roots(Path(tempfile.gettempdir()))
    root = Path(tempfile.mkdtemp(prefix=PREFIX))
    # Locked before it has its name: a sweep never sees an unlocked lock file of a live run.
    _lock = os.open(root / f"{LOCK_FILE}.new", os.O_CREAT | os.O_RDWR, 0o600)
    fcntl.flock(_lock, fcntl.LOCK_EX)
    os.rename(root / f"{LOCK_FILE}.new", root / LOCK_FILE)
    watcher = subprocess.Popen(
        [sys.executable, "-S", "-I", str(WATCHER), str(root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    os.environ["TMPDIR"] = str(root)
    tempfile.tempdir = str(root)
    atexit.register(_leave, root, watcher)
    _root, _watcher = root, watcher
    return root


def guard_group(pgid: int, started: bool = True) -> None:
    """Ask this run's watcher to kill the process group ``pgid`` (led by a process this run just
    started) if this process dies before the group ended (``started=False``: it ended, forget
    it). For programs started outside the warm worker, whose supervisor does this for its own.
    Only the group is killed, and only while its leader lives (a reaped leader's pid may have
    been reused): a process that left the group (``setsid``) is not, and a program is
    unguarded for the moment between its start and this call. A no-op before :func:`enter`, or
    where /proc cannot tell the leader's start time."""
    if _watcher is None:
        return
    if started:
        _started[pgid] = _start_time(pgid)
    stamp = _started.get(pgid) if started else _started.pop(pgid, None)
    if stamp is None:
        return
    with _watcher_lock:
        try:
            assert _watcher.stdin is not None  # Popen(stdin=PIPE)
            _watcher.stdin.write(f"{'+' if started else '-'}{pgid} {stamp}\n".encode())
            _watcher.stdin.flush()
        except (OSError, ValueError):  # the watcher is gone (at exit): nothing left to guard
            pass


def _leave(root: Path, watcher: subprocess.Popen) -> None:
    # The watcher first ends what is still guarded, so nothing writes into the root as it goes.
    with _watcher_lock:
        assert watcher.stdin is not None  # Popen(stdin=PIPE)
        watcher.stdin.close()
    watcher.wait()
    shutil.rmtree(root, ignore_errors=True)


def _start_time(pid: int) -> str | None:
    """``pid``'s start time in clock ticks since boot (``/proc/<pid>/stat`` field 22), or None
    when it is gone or /proc is not this pid namespace's (``unshare --pid`` without remounting
    it), where a pid there would name another process."""
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            if int(f.read().split()[0]) != os.getpid():
                return None
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            return f.read().rsplit(")", 1)[1].split()[19]
    except (OSError, ValueError, IndexError):
        return None


def remove_orphaned_roots(base: Path) -> list[Path]:
    """Remove the run roots directly under ``base`` whose ``LOCK_FILE`` no process holds (the
    run that made it is gone, killed with its watcher). Only this module's own
    ``verified-docs-run-*`` names are looked at, and a root without a lock file is always kept:
    it may be being made, or belong to a run of an older version that is still going. Returns
    the removed roots."""
    removed = []
    for root in base.glob(PREFIX + "*"):
        try:
            fd = os.open(root / LOCK_FILE, os.O_RDONLY)
        except OSError:  # no lock file (yet), or not ours to read
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # held: its run is alive
            continue
        else:
            shutil.rmtree(root, ignore_errors=True)
            removed.append(root)
        finally:
            os.close(fd)
    return removed
