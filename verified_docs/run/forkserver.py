"""Start Python snippets from a warm worker that has already imported toolnexus.

A cold ``python snippet.py`` spends most of its life importing toolnexus
(mostly ``mcp``). The worker (``tracer/verified_docs_forkserver.py``) pays that once and forks a
fresh process per snippet, so each snippet still starts from a clean post-import state: its own
process, process group, environment, working directory, stdio and trace file, with no event
loop, thread or module global left by another snippet. What the runner gets back is the same
:class:`~verified_docs.run.process.Completed` a cold start gives, plus the snippet's own time.

We wrote this rather than use ``multiprocessing``'s forkserver: that one runs a Python callable
in the child and returns through pickling; we need a ``python program.py`` look-alike whose
stdout and stderr are pipes the runner reads as they come, whose process group the runner can
kill, and whose exit code is the program's own.
"""

from __future__ import annotations

import atexit
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

from verified_docs.errors import VerifiedDocsError
from verified_docs.run.process import Completed, kill_group, supervise

WORKER = Path(__file__).parent / "tracer" / "verified_docs_forkserver.py"
SOCKET_NAME = "worker.sock"  # in the worker's folder, which is its working directory
START_TIMEOUT_S = 120.0
LOST_SUPERVISOR = (
    "the process that started it and waited for its exit died first (did it kill its parent?); "
    "its exit code is unknown and it was killed"
)


class ForkServerError(VerifiedDocsError, RuntimeError):
    """The warm worker could not be started or stopped answering; the message has its stderr."""


class ForkServer:
    """One warm worker process for ``python`` (default: this interpreter), started on first use.

    ``env`` is the worker's environment: it decides what the interpreter fixes at start-up
    (hash seed, bytecode writing, ``sitecustomize`` from ``PYTHONPATH``). Thread-safe: many
    snippets may be started at once. Raises :class:`ForkServerError` when the worker dies.
    """

    def __init__(self, env: dict[str, str], python: str = sys.executable) -> None:
        self._env, self._python = env, python
        self._lock = threading.Lock()
        self._proc: subprocess.Popen | None = None
        self._dir: tempfile.TemporaryDirectory | None = None
        self._dir_fd: int | None = None

    @property
    def socket_path(self) -> str:
        """Where the runner connects. A Unix socket's path may hold 107 bytes at most, and the
        worker's folder sits under the run's temporary root, under TMPDIR, which can be long
        (macOS's is ~50 bytes before ours): the worker binds ``worker.sock`` relative to its own
        working directory, and a long folder is reached through this process's descriptor of
        it (``/proc/self/fd/N/worker.sock``, Linux)."""
        assert self._dir is not None
        full = os.path.join(self._dir.name, SOCKET_NAME)
        if len(full.encode()) < 100 or self._dir_fd is None:
            return full
        return f"/proc/self/fd/{self._dir_fd}/{SOCKET_NAME}"

    def _ensure_started(self) -> None:
        with self._lock:
            if self._proc is not None and self._proc.poll() is None:
                return
            self._stop_locked()
            self._dir = tempfile.TemporaryDirectory(prefix="worker-")  # any length: see socket_path
            self._dir_fd = os.open(self._dir.name, os.O_PATH) if hasattr(os, "O_PATH") else None
            log = open(os.path.join(self._dir.name, "worker.log"), "wb")
            try:
                self._proc = subprocess.Popen(
                    [self._python, str(WORKER), SOCKET_NAME],
                    cwd=self._dir.name,
                    env={**self._env, "HOME": self._dir.name},
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=log,
                    start_new_session=True,
                )
            except OSError as e:
                raise ForkServerError(f"cannot start the warm Python worker with {self._python}: {e}") from None
            finally:
                log.close()
            ready = self._read_ready()
            if ready != b"ready\n":
                raise ForkServerError(
                    f"the warm Python worker did not start ({self._python} {WORKER}): {self._log_tail()}"
                )

    def _read_ready(self) -> bytes:
        result: list[bytes] = []
        stdout = self._proc.stdout if self._proc is not None else None
        if stdout is None:
            return b""
        reader = threading.Thread(target=lambda: result.append(stdout.readline()), daemon=True)
        reader.start()
        reader.join(START_TIMEOUT_S)
        return result[0] if result else b""

    def _log_tail(self) -> str:
        path = os.path.join(self._dir.name, "worker.log") if self._dir else ""
        try:
            return Path(path).read_text(encoding="utf-8", errors="replace")[-4000:] or "(no output)"
        except OSError:
            return "(no log)"

    def run(
        self, program: Path, args: tuple[str, ...], *, cwd: Path, env: dict[str, str], timeout_s: float
    ) -> Completed:
        """Run ``program`` with ``args`` in a fresh child of the worker, like ``python program``
        with ``env`` as its whole environment and ``cwd`` as its working directory; on timeout or
        flood SIGKILL its process group. ``timeout_s`` in seconds. Raises
        :class:`ForkServerError` when the worker is gone."""
        self._ensure_started()
        start = time.monotonic()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        handed_over = False
        try:
            try:
                conn.connect(self.socket_path)
                request = {
                    "program": str(program),
                    "args": list(args),
                    "cwd": str(cwd),
                    "env": env,
                    "timeout_s": timeout_s,
                    # When the supervisor kills it (time.monotonic() is one clock for every
                    # process here), so the child's stack dump comes before that, however late
                    # the fork made it start.
                    "deadline": start + timeout_s,
                }
                socket.send_fds(conn, [json.dumps(request).encode() + b"\n"], [out_w, err_w])
            finally:
                os.close(out_w)
                os.close(err_w)
            replies = _Lines(conn, self._log_tail)
            pid = replies.next("pid", None)["pid"]
            finished: dict = {}

            def wait(seconds: float) -> int | None:
                try:
                    finished.update(replies.next("exit", max(seconds, 0.001)))
                except TimeoutError:
                    return None
                except ForkServerError:
                    # The supervisor died, not the worker (a snippet may kill its parent): its exit
                    # status is lost, its output is not.
                    kill_group(pid)
                    finished.update(exit_code=-9, lost=True)
                return finished["exit_code"]

            stdout, stderr = os.fdopen(out_r, "rb"), os.fdopen(err_r, "rb")
            handed_over = True  # from here the readers own (and close) the pipes
            done = supervise(pid, stdout, stderr, wait, timeout_s, start, own_s=lambda: finished.get("own_s"))
            notes = [done.anomaly]
            if finished.get("escaped"):
                notes.append(
                    f"a process it started left its process group and was still running after it ended "
                    f"(pid {', '.join(map(str, finished['escaped']))}; killed)"
                )
            if finished.get("lost"):
                notes.append(LOST_SUPERVISOR)
            return replace(done, anomaly="; ".join(filter(None, notes)) or None)
        finally:
            if not handed_over:
                os.close(out_r)
                os.close(err_r)
            conn.close()

    def _stop_locked(self) -> None:
        proc = self._proc
        if proc is not None:
            try:
                if proc.stdin is not None:
                    proc.stdin.close()  # the worker exits when its stdin closes
                proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                proc.kill()
                proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()
            self._proc = None
        if self._dir_fd is not None:
            os.close(self._dir_fd)
            self._dir_fd = None
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None

    def start(self) -> None:
        """Start the worker now, if it is not running, and return once it is ready (its imports
        done); a run otherwise starts it. ``nox -s bench`` times a worker's start so. Raises
        :class:`ForkServerError` when it does not start."""
        self._ensure_started()

    def close(self) -> None:
        """Stop the worker (snippets already started run on in their own process groups)."""
        with self._lock:
            self._stop_locked()


class _Lines:
    """JSON lines from the worker's supervisor, each read with its own timeout (``socket``'s
    ``makefile`` cannot be read again after a timeout, and the runner waits in two steps)."""

    def __init__(self, conn: socket.socket, log_tail) -> None:
        self._conn, self._log_tail, self._buffer = conn, log_tail, b""

    def next(self, what: str, timeout_s: float | None) -> dict:
        """The next message; raises ``TimeoutError`` after ``timeout_s`` seconds (``None``:
        wait for ever) and :class:`ForkServerError` when the connection closes first."""
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while b"\n" not in self._buffer:
            self._conn.settimeout(None if deadline is None else max(deadline - time.monotonic(), 0.001))
            try:
                chunk = self._conn.recv(4096)
            except socket.timeout:
                raise TimeoutError(what) from None
            if not chunk:
                raise ForkServerError(
                    f"the warm Python worker stopped answering (waiting for {what}): {self._log_tail()}"
                )
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return json.loads(line)


_shared: dict[tuple[str, tuple], ForkServer] = {}
_shared_lock = threading.Lock()


def shared(env: dict[str, str], python: str = sys.executable) -> ForkServer:
    """The process-wide worker for ``python`` with ``env``, created once and stopped at exit."""
    key = (python, tuple(sorted(env.items())))
    with _shared_lock:
        if key not in _shared:
            server = _shared[key] = ForkServer(env, python)
            atexit.register(server.close)
        return _shared[key]


def close_shared() -> None:
    """Stop every process-wide worker now (the next :func:`shared` call starts a fresh one).
    A stopped worker has been waited for, so its CPU time and its snippets' are in this
    process's ``getrusage(RUSAGE_CHILDREN)``: ``nox -s bench`` reads a pass's CPU time so."""
    with _shared_lock:
        servers = list(_shared.values())
    for server in servers:
        server.close()
