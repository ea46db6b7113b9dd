"""Golden output: what a program printed in its last verified run, compared after normalising.

The golden file holds the real output (shown on the page as is); comparison normalises both
sides so generated ids, ports and durations do not count as drift. Writes are atomic and
happen only when the normalised content changed.
"""

from __future__ import annotations

import difflib
import os
import re
import tempfile
import time
from pathlib import Path

from verified_docs.errors import Location, Problem
from verified_docs.verify.normalise import normalise

MAX_DIFF_LINES = 120  # a report, not a copy of the output


def compare(golden_path: Path, stdout: str, variant: dict[str, str] | None = None) -> list[Problem]:
    """Problems when ``stdout`` differs from the golden file (a unified diff with the golden
    file's line numbers), when the golden file is missing, or has Windows line endings.
    ``variant`` maps values swapped for this run to their replacements in the golden text."""
    if not golden_path.is_file():
        return [Problem(Location(golden_path), "golden output file is missing; create it with `nox -s update-outputs`")]
    raw = golden_path.read_bytes()
    if b"\r\n" in raw:
        line = raw[: raw.index(b"\r\n")].count(b"\n") + 1
        return [
            Problem(
                Location(golden_path, line),
                "golden output has Windows line endings (CRLF); rewrite it with `nox -s update-outputs`",
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
    return [Problem(Location(golden_path, first + 1), "printed output differs from the golden output", tuple(diff))]


def write_if_changed(golden_path: Path, stdout: str) -> bool:
    """Atomically replace the golden file with ``stdout`` unless it is already equivalent.

    Returns True when the file was written. The new content goes to a temporary file in the
    same folder first, then ``os.replace`` swaps it in: readers see old or new, never half.
    """
    if golden_path.is_file():
        raw = golden_path.read_bytes()
        if b"\r\n" not in raw and normalise(raw.decode("utf-8", errors="replace")) == normalise(stdout):
            return False
    write_atomic(golden_path, stdout)
    return True


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _temporary_name(path: Path) -> Path:
    return path.parent / f".{path.name}.{os.urandom(6).hex()}.tmp"


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write ``text`` (UTF-8 with ``\n`` line ends, or ``bytes`` as they are) to ``path`` so
    that the file is always either old or new, never partial.

    On Linux the bytes go to an unnamed file in the same folder (``O_TMPFILE``), which is
    named ``.<name>.<hex>.tmp`` only once complete and at once renamed over ``path``: a kill
    while writing leaves nothing behind, and one in the microseconds between naming and
    renaming leaves that name (which ``.gitignore`` covers and :func:`remove_stale_temporaries`
    removes). Elsewhere (no ``O_TMPFILE``, no ``/proc``) a named temporary file from
    ``tempfile.mkstemp`` is written instead. Raises OSError when the folder is not writable."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    tmp = _write_unnamed(path, data)
    if tmp is None:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        tmp = Path(name)
        try:
            os.chmod(tmp, 0o666 & ~_umask())  # mkstemp creates 0600; give the mode a plain open() would
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _write_unnamed(path: Path, data: bytes) -> Path | None:
    """``data`` in a complete, synced ``O_TMPFILE`` file beside ``path``, then given a
    temporary name, which is returned; None where that cannot be done here."""
    try:
        fd = os.open(path.parent, os.O_TMPFILE | os.O_WRONLY, 0o666)  # the umask applies, as in open()
    except (AttributeError, OSError):  # not Linux, or a file system without O_TMPFILE
        return None
    tmp = _temporary_name(path)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
        folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:  # a folder fd makes os.link use linkat(AT_SYMLINK_FOLLOW), not link()
            os.link(f"/proc/self/fd/{f.fileno()}", tmp.name, dst_dir_fd=folder, follow_symlinks=True)
        except OSError:  # no /proc, say
            return None
        finally:
            os.close(folder)
    return tmp


# The names write_atomic gives its temporary files: ".<name>.<12 hex>.tmp" (O_TMPFILE, then
# linked) or ".<name>.<8 of [a-z0-9_]>.tmp" (tempfile.mkstemp).
_TEMPORARY = re.compile(r"^\..+\.(?:[0-9a-f]{12}|[a-z0-9_]{8})\.tmp$")
_NOT_OURS = {"node_modules", ".venv", "venv", ".git", "__pycache__"}


def remove_stale_temporaries(folder: Path, older_than_s: float = 10.0) -> list[Path]:
    """Remove the temporary files :func:`write_atomic` leaves when killed at the wrong moment
    (names as in ``_TEMPORARY``), anywhere under ``folder`` except in folders a snippet's own
    tools make (``node_modules``, virtual environments), if last modified more than
    ``older_than_s`` seconds ago (a younger one may belong to a write in progress). Returns the
    removed paths."""
    removed = []
    cutoff = time.time() - older_than_s
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = [d for d in dirnames if d not in _NOT_OURS]
        for name in filenames:
            tmp = Path(dirpath) / name
            if not _TEMPORARY.match(name):
                continue
            try:
                if tmp.stat().st_mtime < cutoff:
                    tmp.unlink()
                    removed.append(tmp)
            except FileNotFoundError:  # removed meanwhile by its own writer
                pass
    return removed
