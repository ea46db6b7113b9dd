"""Golden output: what a program printed in its last verified run, compared after normalising.

The golden file holds the real output (shown on the page as is); comparison normalises both
sides so generated ids, ports and durations do not count as drift. Writes are atomic and
happen only when the normalised content changed.
"""

from __future__ import annotations

import difflib
import shlex
from pathlib import Path

from verified_docs.errors import Location, Problem
from verified_docs.files import write_atomic
from verified_docs.verify.normalise import normalise

MAX_DIFF_LINES = 120  # a report, not a copy of the output


def update_command(scenario: str) -> str:
    """The one command that rewrites ``scenario``'s golden outputs (``scenario`` is its name,
    ``suspension/answer-later``), as a shell line."""
    return f"nox -s update-outputs -- --only {shlex.quote(scenario)}"


def compare(
    golden_path: Path, stdout: str, variant: dict[str, str] | None = None, *, scenario: str | None = None
) -> list[Problem]:
    """Problems when ``stdout`` differs from the golden file (a unified diff with the golden
    file's line numbers), when the golden file is missing, or has Windows line endings.
    ``variant`` maps values swapped for this run to their replacements in the golden text.
    ``scenario`` (the run's scenario name) makes each problem name the command that rewrites
    the file (:func:`update_command`), the diff's as its first detail line; leave it out for a
    variant, whose difference no rewrite fixes (the output did not follow the swapped values)."""
    fix = f"`{update_command(scenario)}`" if scenario else "`nox -s update-outputs`"
    if not golden_path.is_file():
        return [Problem(Location(golden_path), f"golden output file is missing; create it with {fix}")]
    raw = golden_path.read_bytes()
    if b"\r\n" in raw:
        line = raw[: raw.index(b"\r\n")].count(b"\n") + 1
        return [
            Problem(
                Location(golden_path, line), f"golden output has Windows line endings (CRLF); rewrite it with {fix}"
            )
        ]
    golden = raw.decode("utf-8", errors="replace")
    for old, new in (variant or {}).items():
        golden = golden.replace(old, new)
    want, got = normalise(golden), normalise(stdout)
    if want == got:
        return []
    diff = list(
        difflib.unified_diff(
            want.splitlines(),
            got.splitlines(),
            fromfile=f"{golden_path} (golden)",
            tofile="printed by this run",
            lineterm="",
            n=2,
        )
    )
    first = next(
        (i for i, (a, b) in enumerate(zip(want.splitlines(), got.splitlines(), strict=False)) if a != b),
        min(len(want.splitlines()), len(got.splitlines())),
    )
    if len(diff) > MAX_DIFF_LINES:
        diff = diff[:MAX_DIFF_LINES] + [f"... {len(diff) - MAX_DIFF_LINES:,} more diff lines not shown"]
    # update-outputs rewrites a run's golden file only when the drift is the run's one problem.
    hint = [
        f"if the printed output is right: {fix} (it rewrites a run's golden file only when this is the run's one problem: fix the others first)"
    ]
    return [
        Problem(
            Location(golden_path, first + 1),
            "printed output differs from the golden output",
            tuple((hint if scenario else []) + diff),
        )
    ]


def write_if_changed(golden_path: Path, stdout: str) -> bool:
    """Atomically replace the golden file with ``stdout`` unless it is already equivalent.

    Returns True when the file was written, with :func:`verified_docs.files.write_atomic`:
    readers see old or new, never half.
    """
    if golden_path.is_file():
        raw = golden_path.read_bytes()
        if b"\r\n" not in raw and normalise(raw.decode("utf-8", errors="replace")) == normalise(stdout):
            return False
    write_atomic(golden_path, stdout)
    return True
