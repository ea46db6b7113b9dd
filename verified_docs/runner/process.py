"""Start a program in its own process group, wait with a timeout, kill the whole tree if needed."""
from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

MAX_CAPTURE_BYTES = 2_000_000  # a flooding snippet is cut here; its verdict says so


@dataclass(frozen=True)
class Completed:
    """What a finished (or killed) process left. ``exit_code`` is negative for a signal
    (``-9`` after a timeout kill); ``duration_s`` is wall time in seconds."""

    exit_code: int
    stdout: str
    stderr: str
    timed_out: bool
    duration_s: float
    truncated: bool = False


def run_process(argv: list[str], *, cwd: Path, env: dict[str, str], timeout_s: float) -> Completed:
    """Run ``argv`` with no stdin; on timeout SIGKILL its process group (children included).

    Output is decoded as UTF-8 with replacement characters, so non-UTF-8 bytes never crash the
    runner. Raises ``FileNotFoundError`` when the interpreter or compiler is missing.
    """
    start = time.monotonic()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    timed_out = False
    try:
        out, err = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc)
        out, err = proc.communicate()
    finally:
        _kill_group(proc)  # reap anything the program left running in its group
    truncated = len(out) > MAX_CAPTURE_BYTES or len(err) > MAX_CAPTURE_BYTES
    return Completed(
        exit_code=proc.returncode,
        stdout=out[:MAX_CAPTURE_BYTES].decode("utf-8", errors="replace"),
        stderr=err[:MAX_CAPTURE_BYTES].decode("utf-8", errors="replace"),
        timed_out=timed_out,
        duration_s=time.monotonic() - start,
        truncated=truncated,
    )


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
