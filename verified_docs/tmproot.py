"""One temporary folder per run of the machinery, gone when the run ends, even after a kill.

Every temporary folder of a run (a scenario's working directory, the warm worker's socket
folder, the fences' records, whatever a snippet or a test makes with :mod:`tempfile`) is made
under one root, ``$TMPDIR/verified-docs-run-*``: :func:`enter` points ``TMPDIR`` and
:data:`tempfile.tempdir` at it for this process and every process it starts. The root is
removed when the process exits, and, if it is killed (SIGKILL included, the whole process group
too), by a small watcher in a session of its own that waits for this process's end on a pipe.

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
from pathlib import Path

PREFIX = "verified-docs-run-"
# The watcher: wait for the pipe to close (this process exited or was killed), then remove the
# root; retried briefly, since a process of the run may still be writing into it as it dies.
_WATCH = ("import shutil, sys, time\n"
          "sys.stdin.buffer.read()\n"
          "for _ in range(20):\n"
          "    shutil.rmtree(sys.argv[1], ignore_errors=True)\n"
          "    if not __import__('os').path.exists(sys.argv[1]):\n"
          "        break\n"
          "    time.sleep(0.1)\n")

_root: Path | None = None


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
    global _root
    if _root is not None:
        return _root
    problem = tmpdir_problem()
    if problem:
        raise EnvironmentProblem(problem)
    root = Path(tempfile.mkdtemp(prefix=PREFIX))
    watcher = subprocess.Popen([sys.executable, "-S", "-I", "-c", _WATCH, str(root)], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    os.environ["TMPDIR"] = str(root)
    tempfile.tempdir = str(root)
    atexit.register(_leave, root, watcher)
    _root = root
    return root


def _leave(root: Path, watcher: subprocess.Popen) -> None:
    shutil.rmtree(root, ignore_errors=True)
    watcher.stdin.close()
    watcher.wait()
