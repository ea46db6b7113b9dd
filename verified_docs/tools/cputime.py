"""CPU time of process trees, and paired wall times, for ``nox -s bench``: figures meant to
hold on a shared machine.

A loaded machine makes a process wait longer for a core, which CPU time does not count. It
does not leave CPU time untouched, though: on this 2-core VM a cold ``import toolnexus`` took
0.57 CPU seconds quiet and 0.80 beside a ``nox -s docs -- --force`` loop (2026-12-07), and the
host itself runs the cores faster or slower from one minute to the next. Where the question is
what something costs, the bench reads user + system
seconds as the kernel counts them, of a process and of every descendant it waited for
(``os.wait4`` for a command, ``resource.getrusage`` of this process and its reaped children for
work done in process). Where the question is how long someone waits, the two sides of a ratio
run in pairs, back to back, and the ratio is taken per pair (:func:`paired`): load that comes
and goes stretches both sides of a pair alike.

What CPU time cannot see: a process nobody waits for (one that escaped to init, or a child of a
parent that ignores SIGCHLD, whose usage Linux drops; the warm worker reaps its supervisors for
this reason), and work of a process still running when the figure is read (the bench stops the
warm workers first: :func:`~verified_docs.run.forkserver.close_shared`).

Standard library only: psutil would read the same kernel counters, and only of processes still
alive, which misses the short-lived programs a pass starts.
"""

from __future__ import annotations

import os
import resource
import subprocess
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator


@dataclass(frozen=True)
class Usage:
    """What one command took: ``wall_s`` seconds from start to exit, ``cpu_s`` user + system
    seconds of it and of every descendant it waited for."""

    wall_s: float
    cpu_s: float


def run(argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> Usage:
    """Run ``argv`` in ``cwd`` to its end (stdin empty, output kept in a temporary file) and
    return its :class:`Usage`. Raises :class:`RuntimeError` naming the command, its exit code
    and the end of its output when it exits non-zero; ``FileNotFoundError`` when it is missing."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)  # wait4, not wait: it returns the tree's usage
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
        if proc.returncode != 0:
            out.seek(0)
            tail = out.read()[-4000:].decode("utf-8", errors="replace")
            raise RuntimeError(f"{' '.join(argv)} failed (exit {proc.returncode}) in {cwd}:\n{tail}")
    return Usage(wall_s=wall, cpu_s=usage.ru_utime + usage.ru_stime)


@dataclass
class Meter:
    """What a :func:`measuring` block took, filled in when it ends: ``wall_s``; ``self_cpu_s``,
    user + system seconds of this process (every thread); ``children_cpu_s``, of the processes
    it waited for during the block (and their waited-for descendants)."""

    wall_s: float = 0.0
    self_cpu_s: float = 0.0
    children_cpu_s: float = 0.0

    @property
    def cpu_s(self) -> float:
        """Seconds of CPU the block cost in all: this process's and its children's."""
        return self.self_cpu_s + self.children_cpu_s

    def __add__(self, other: Meter) -> Meter:
        return Meter(
            self.wall_s + other.wall_s, self.self_cpu_s + other.self_cpu_s, self.children_cpu_s + other.children_cpu_s
        )

    def less(self, other: Meter, times: float) -> Meter:
        """This block's figures less ``times`` ``other``'s (a cost counted that many times too
        often, such as a worker start in each of several parts of one pass)."""
        return Meter(
            self.wall_s - times * other.wall_s,
            self.self_cpu_s - times * other.self_cpu_s,
            self.children_cpu_s - times * other.children_cpu_s,
        )


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


@contextmanager
def measuring() -> Iterator[Meter]:
    """Measure the block: yields a :class:`Meter`, filled in on leaving. Another thread of this
    process working meanwhile is counted too, so measure with nothing else running here."""
    meter = Meter()
    own, children = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        yield meter
    finally:
        meter.wall_s = time.perf_counter() - start
        meter.self_cpu_s = _cpu(resource.RUSAGE_SELF) - own
        meter.children_cpu_s = _cpu(resource.RUSAGE_CHILDREN) - children


def interleaved(sides: dict[str, Callable[[int], Meter]], parts: int) -> dict[str, Meter]:
    """Each side's work in ``parts`` parts, interleaved: part 0 of every side back to back, then
    part 1, and so on, the sides' order rotated one place each part, so that no side always runs
    first or last. ``sides`` maps a name to what measures its part ``i`` (0-based). Returns each
    side's parts summed. A loaded or throttled host changes how much CPU the same work takes
    within seconds (see the module's note): sides measured minutes apart move apart, sides
    measured in short parts side by side move together. Raises ``ValueError`` for fewer than
    one part or no side."""
    if parts < 1 or not sides:
        raise ValueError(f"interleaved() needs a side and at least one part, got {len(sides)} sides, {parts} parts")
    names = list(sides)
    totals = {name: Meter() for name in names}
    for i in range(parts):
        k = i % len(names)
        for name in names[k:] + names[:k]:
            totals[name] = totals[name] + sides[name](i)
    return totals


def paired(a: Callable[[], float], b: Callable[[], float], pairs: int) -> tuple[list[float], list[float], list[float]]:
    """``pairs`` pairs of ``a()`` and ``b()`` (each returns seconds), run back to back, the order
    swapped every other pair (A B, B A, A B, ...) so that a drift in load favours neither side.
    Returns the samples of ``a``, of ``b``, and each pair's ratio ``a / b``; report the median of
    the ratios, not the ratio of medians. Raises ``ValueError`` for fewer than one pair."""
    if pairs < 1:
        raise ValueError(f"paired() needs at least one pair, got {pairs}")
    got_a, got_b = [], []
    for i in range(pairs):
        if i % 2 == 0:
            got_a.append(a())
            got_b.append(b())
        else:
            got_b.append(b())
            got_a.append(a())
    return got_a, got_b, [x / y for x, y in zip(got_a, got_b, strict=True)]
