"""Count the seconds of sleep a snippet process asks for: ``time.sleep`` and ``asyncio.sleep``,
wrapped, and the ``slept`` event at exit.

A top-level module of the tracer's folder (imported by ``sitecustomize``, never from the
``verified_docs`` package).

Sleeps are counted from what was asked for, not timed: the seconds asked for are the same on a
loaded machine, so the build's limit on them (``verify.scenarios.SLEEP_LIMIT_S``) cannot
flake. An asyncio sleep cut short by a cancellation counts only the time it lasted
(``sleep(inf)`` is a wait for a cancel). Only sleeps called from the scenario's own code and
from toolnexus count: a server the program starts (uvicorn's loop wakes every 0.1 s) idles on
its own time, not the example's.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from types import FrameType
from typing import Any, Callable

import verified_docs_trace

_SLEPT = {"seconds": 0.0, "calls": 0}
_STDLIB = os.path.realpath(os.path.dirname(os.__file__)) + os.sep
_WHERE: dict[str, str] = {}


def reset() -> None:
    """Start counting from zero (a forked child starts its own count)."""
    _SLEPT.update(seconds=0.0, calls=0)


def emit_slept() -> None:
    """The ``slept`` event: the seconds asked for (rounded to microseconds) and the calls."""
    verified_docs_trace.emit({"event": "slept", "seconds": round(_SLEPT["seconds"], 6), "calls": _SLEPT["calls"]})


def _kind(file: str) -> str:
    """ "stdlib", "toolnexus", "package" (another installed one) or "own" (the example's)."""
    kind = _WHERE.get(file)
    if kind is None:
        real = os.path.realpath(file)
        installed = f"{os.sep}site-packages{os.sep}" in real or f"{os.sep}dist-packages{os.sep}" in real
        if installed:
            kind = "toolnexus" if f"{os.sep}toolnexus{os.sep}" in real else "package"
        else:
            kind = "stdlib" if real.startswith(_STDLIB) else "own"
        _WHERE[file] = kind
    return kind


def _counts(frame: FrameType | None) -> bool:
    """Whether a sleep called from ``frame`` is the example's: the first caller outside the
    standard library (past asyncio's own frames, to whoever runs the loop or awaits) is the
    scenario's code or toolnexus."""
    while frame is not None:
        kind = _kind(frame.f_code.co_filename)
        if kind != "stdlib":
            return kind != "package"
        frame = frame.f_back
    return True


def _count_sleep(seconds: Any) -> None:
    try:
        _SLEPT["seconds"] += max(0.0, float(seconds))
    except (TypeError, ValueError):
        pass  # the real sleep raises its own error for a bad argument
    _SLEPT["calls"] += 1


def counting_time_sleep(real: Callable[[float], None]) -> Callable[[float], None]:
    """``time.sleep`` that counts what it is asked for, then sleeps as ``real`` does."""

    @functools.wraps(real)
    def sleep(seconds: float) -> None:
        if _counts(sys._getframe(1)):
            _count_sleep(seconds)
        return real(seconds)

    return sleep


def patch_asyncio_tasks(module: Any) -> None:
    """Make ``module`` (``asyncio.tasks``)'s ``sleep`` count what it is asked for."""
    # Patched where it is defined, before `asyncio/__init__` re-exports it, so `asyncio.sleep`
    # and `from asyncio import sleep` both count.
    real = module.sleep

    @functools.wraps(real)
    async def sleep(delay: float, result: Any = None) -> Any:
        if not _counts(sys._getframe(1)):
            return await real(delay, result)
        start = time.monotonic()
        try:
            value = await real(delay, result)
        except BaseException:
            _count_sleep(min(float(delay), time.monotonic() - start))
            raise
        _count_sleep(delay)
        return value

    module.sleep = sleep
