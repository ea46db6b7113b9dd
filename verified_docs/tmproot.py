"""One temporary folder per run of the machinery, gone when the run ends, even after a kill.

Every temporary folder of a run (a scenario's working directory, the warm worker's socket
folder, the fences' records, whatever a snippet or a test makes with :mod:`tempfile`) is made
under one root, ``$TMPDIR/verified-docs-run-*``: :func:`enter` points ``TMPDIR`` and
:data:`tempfile.tempdir` at it for this process and every process it starts. The root is
removed when the process exits, and, if it is killed (SIGKILL included, the whole process group
too), by a small watcher in a session of its own that waits for this process's end on a pipe;
the watcher first kills the process groups of programs still running that the run started
itself (:func:`guard_group`), so that none of them outlives it or writes into the root.
When the watcher dies too (a CI job cancelled with its whole cgroup), the root names its owner
(``OWNER_FILE``: pid and start time), and the next :func:`enter` under the same ``TMPDIR``
removes every root whose owner is gone (:func:`remove_orphaned_roots`).

:func:`tmpdir_problem` and :func:`uv_cache_problem` turn an unusable environment into one line
naming the variable and the fix, before anything else runs. Standard library only: the
noxfile loads this module by its path.
"""
from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

PREFIX = "verified-docs-run-"
# The watcher: read the process groups the run asks it to guard ("+<pgid>" when one starts,
# "-<pgid>" when it ended) until the pipe closes (this process exited or was killed); then kill
# the groups still guarded, and remove the root, retried briefly, since a process of the run
# may still be writing into it as it dies.
_WATCH = ("import os, shutil, signal, sys, time\n"
          "groups = set()\n"
          "for line in sys.stdin.buffer:\n"
          "    op, pgid = line[:1], int(line[1:])\n"
          "    (groups.add if op == b'+' else groups.discard)(pgid)\n"
          "for pgid in groups:\n"
          "    try:\n"
          "        os.killpg(pgid, signal.SIGKILL)\n"
          "    except OSError:\n"
          "        pass\n"
          "for _ in range(20):\n"
          "    shutil.rmtree(sys.argv[1], ignore_errors=True)\n"
          "    if not os.path.exists(sys.argv[1]):\n"
          "        break\n"
          "    time.sleep(0.1)\n")

_root: Path | None = None
_watcher: subprocess.Popen | None = None
_watcher_lock = threading.Lock()
# "<pid> <start time in clock ticks since boot> <pid namespace>" of the process that made the root
OWNER_FILE = ".owner"


class EnvironmentProblem(Exception):
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
    return (f"{name}={folder} cannot be written: {where}; set UV_CACHE_DIR to a writable directory "
            "(or UV_NO_CACHE=1)")


def enter() -> Path:
    """Make this run's temporary root and point ``TMPDIR`` and :mod:`tempfile` at it (idempotent:
    a second call returns the same root). Raises :class:`EnvironmentProblem` when ``TMPDIR`` is
    unusable. The root is removed at exit, or by the watcher when this process is killed."""
    global _root, _watcher
    if _root is not None:
        return _root
    problem = tmpdir_problem()
    if problem:
        raise EnvironmentProblem(problem)
    remove_orphaned_roots(Path(tempfile.gettempdir()))
    root = Path(tempfile.mkdtemp(prefix=PREFIX))
    (root / OWNER_FILE).write_text(f"{_owner(os.getpid()) or os.getpid()} {_pid_namespace()}")
    watcher = subprocess.Popen([sys.executable, "-S", "-I", "-c", _WATCH, str(root)], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    os.environ["TMPDIR"] = str(root)
    tempfile.tempdir = str(root)
    atexit.register(_leave, root, watcher)
    _root, _watcher = root, watcher
    return root


def guard_group(pgid: int, started: bool = True) -> None:
    """Ask this run's watcher to kill the process group ``pgid`` if this process dies before
    the group ended (``started=False``: it ended, forget it). For programs started outside the
    warm worker, whose supervisor does this for its own. A no-op before :func:`enter`."""
    if _watcher is None:
        return
    with _watcher_lock:
        try:
            _watcher.stdin.write(f"{'+' if started else '-'}{pgid}\n".encode())
            _watcher.stdin.flush()
        except (OSError, ValueError):  # the watcher is gone (at exit): nothing left to guard
            pass


def _leave(root: Path, watcher: subprocess.Popen) -> None:
    shutil.rmtree(root, ignore_errors=True)
    with _watcher_lock:
        watcher.stdin.close()
    watcher.wait()


def _pid_namespace() -> str:
    """This process's pid namespace (``pid:[4026531836]``), or ``-`` where /proc does not say."""
    try:
        return os.readlink("/proc/self/ns/pid")
    except OSError:
        return "-"


def _owner(pid: int) -> str | None:
    """``"<pid> <start time>"`` for a live process (Linux: ``/proc/<pid>/stat`` field 22, so a
    reused pid does not pass for the owner), ``"<pid>"`` where /proc is missing, None when dead."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        if Path("/proc/self/stat").exists():
            return None
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            pass
        return str(pid)
    return f"{pid} {stat.rsplit(')', 1)[1].split()[19]}"


def remove_orphaned_roots(base: Path) -> list[Path]:
    """Remove the run roots directly under ``base`` whose owner file names a process of this pid
    namespace that is gone (its pid dead, or reused by a process that started later). Only this module's own
    ``verified-docs-run-*`` names are looked at, and a root without an owner file is always
    kept: it may be being made, or belong to a run of an older version that is still going.
    Returns the removed roots."""
    removed = []
    for root in base.glob(PREFIX + "*"):
        try:
            owner = (root / OWNER_FILE).read_text().split()
        except OSError:  # no owner file (yet), or not ours to read
            continue
        if not owner or not owner[0].isdigit() or owner[-1] != _pid_namespace():
            continue  # not ours to judge: a pid from another namespace (a container sharing TMPDIR) means nothing here
        if _owner(int(owner[0])) == " ".join(owner[:-1]):
            continue
        shutil.rmtree(root, ignore_errors=True)
        removed.append(root)
    return removed
