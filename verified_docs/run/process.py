"""Start a program in its own process group, wait with a timeout, kill the whole tree if needed.

Output is read as it comes, up to a cap: a program that floods its output is killed as soon as
it passes the cap instead of filling the runner's memory until the timeout.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from verified_docs.run import tmproot

MAX_CAPTURE_BYTES = 2_000_000  # per stream; past this the program is killed and its verdict says so
ESCAPE_GRACE_S = 2.0  # after its group is killed, how long its output may stay open before we look for who holds it


@dataclass(frozen=True)
class Completed:
    """What a finished (or killed) process left. ``exit_code`` is negative for a signal
    (``-9`` after a kill); ``duration_s`` is wall time in seconds; ``flooded`` names the stream
    that passed :data:`MAX_CAPTURE_BYTES`; ``not_utf8`` describes the first undecodable byte;
    ``own_s`` is the program's own wall time from its first line to its exit, when the starter
    can tell (the fork server can; a cold interpreter's start-up cannot be told apart);
    ``anomaly`` says what else went wrong around the program (a process it started escaped its
    process group and kept its output open, say), which fails the run."""

    exit_code: int
    stdout: str
    stderr: str
    timed_out: bool
    duration_s: float
    flooded: str | None = None
    not_utf8: str | None = None
    own_s: float | None = None
    anomaly: str | None = None


class _Capture:
    """Reads one pipe on a thread, keeping at most ``MAX_CAPTURE_BYTES``."""

    def __init__(self, name: str, pipe: io.BufferedReader, on_flood: Callable[[], None]) -> None:
        self.name, self.size = name, 0
        self.chunks: list[bytes] = []
        self.flooded = False
        self.inode = os.fstat(pipe.fileno()).st_ino  # to find who else holds the pipe
        self._thread = threading.Thread(target=self._read, args=(pipe, on_flood), daemon=True)
        self._thread.start()

    def _read(self, pipe: io.BufferedReader, on_flood: Callable[[], None]) -> None:
        for chunk in iter(lambda: pipe.read1(65536), b""):
            if self.size < MAX_CAPTURE_BYTES:
                self.chunks.append(chunk[: MAX_CAPTURE_BYTES - self.size])
            self.size += len(chunk)
            if self.size > MAX_CAPTURE_BYTES and not self.flooded:
                self.flooded = True
                on_flood()
        pipe.close()

    def join(self, timeout_s: float | None = None) -> bytes | None:
        """What was read, once the pipe closed; ``None`` if it is still open after ``timeout_s``."""
        self._thread.join(timeout_s)
        return None if self._thread.is_alive() else b"".join(self.chunks)


def _decode(name: str, data: bytes) -> tuple[str, str | None]:
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as e:
        return data.decode("utf-8", errors="replace"), f"{name} byte {e.start} (0x{data[e.start]:02x}) is not UTF-8"


def run_process(argv: list[str], *, cwd: Path, env: dict[str, str], timeout_s: float) -> Completed:
    """Run ``argv`` with no stdin; on timeout or flood SIGKILL its process group (children too).

    Output is decoded as UTF-8; undecodable bytes become U+FFFD and are reported in
    ``not_utf8``. Raises ``FileNotFoundError`` when the interpreter or compiler is missing.
    """
    start = time.monotonic()
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    # Its own session, so nothing kills it with ours: if this process is killed, the run's
    # watcher kills its group instead.
    tmproot.guard_group(proc.pid)

    def wait(timeout: float) -> int | None:
        try:
            return proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    try:
        # Pipes with the default buffering: buffered readers (typeshed says IO[bytes] | None).
        assert isinstance(proc.stdout, io.BufferedReader) and isinstance(proc.stderr, io.BufferedReader)
        return supervise(proc.pid, proc.stdout, proc.stderr, wait, timeout_s, start)
    finally:
        tmproot.guard_group(proc.pid, started=False)


def supervise(
    group: int,
    stdout: io.BufferedReader,
    stderr: io.BufferedReader,
    wait: Callable[[float], int | None],
    timeout_s: float,
    start: float,
    own_s: Callable[[], float | None] = lambda: None,
) -> Completed:
    """Capture ``stdout`` and ``stderr`` of a started program whose process group is ``group``,
    ``wait(seconds)`` for its exit code (``None`` while it still runs), kill the group on timeout
    or flood and once more after exit (to reap what it left running). ``start`` is the
    ``time.monotonic()`` it was started at; ``own_s()`` gives its own run time when known."""
    kill = lambda: kill_group(group)  # noqa: E731 -- shared by both readers
    out, err = _Capture("stdout", stdout, kill), _Capture("stderr", stderr, kill)
    timed_out = False
    try:
        exit_code = wait(max(0.0, timeout_s - (time.monotonic() - start)))
        if exit_code is None:
            timed_out = True
            kill_group(group)
            exit_code = wait(60.0)
    finally:
        kill_group(group)
    out_bytes, err_bytes = out.join(ESCAPE_GRACE_S), err.join(ESCAPE_GRACE_S)
    anomaly = None
    if out_bytes is None or err_bytes is None:
        # Its group is dead, yet a pipe is still open: a process it started left the group
        # (setsid, a double fork) and holds it. Find it by the pipe, kill it, say so.
        escaped = _holders({c.inode for c in (out, err)}) - {os.getpid()}
        for pid in escaped:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        anomaly = (
            f"a process it started left its process group and kept its output open after it ended "
            f"(pid {', '.join(map(str, sorted(escaped))) or 'unknown'}; killed)"
        )
        out_bytes, err_bytes = out.join(ESCAPE_GRACE_S) or b"", err.join(ESCAPE_GRACE_S) or b""
    stdout_text, bad_out = _decode("stdout", out_bytes)
    stderr_text, _ = _decode("stderr", err_bytes)
    flooded = next((c.name for c in (out, err) if c.flooded), None)
    return Completed(
        exit_code=-9 if exit_code is None else exit_code,
        stdout=stdout_text,
        stderr=stderr_text,
        timed_out=timed_out and flooded is None,
        duration_s=time.monotonic() - start,
        flooded=flooded,
        not_utf8=bad_out,
        own_s=own_s(),
        anomaly=anomaly,
    )


def _holders(inodes: set[int]) -> set[int]:
    """Pids of the processes holding a pipe with one of ``inodes`` open (Linux ``/proc``)."""
    wanted = {f"pipe:[{inode}]" for inode in inodes}
    found = set()
    for fd_dir in Path("/proc").glob("[0-9]*/fd"):
        try:
            if any(os.readlink(fd) in wanted for fd in fd_dir.iterdir()):
                found.add(int(fd_dir.parent.name))
        except OSError:
            continue  # gone, or not ours to read
    return found


def kill_group(group: int) -> None:
    """SIGKILL every process in process group ``group``; quiet when none is left."""
    try:
        os.killpg(group, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
