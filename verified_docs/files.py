"""Generated files, written whole: every stage writes what it generates with :func:`write_atomic`.

The bytes go to a named temporary file beside the target (``.<name>.<8 random>.tmp``, from
:func:`tempfile.mkstemp`), which ``os.replace`` then renames over it: a reader sees the old
file or the new one, never part of one. A writer killed before the rename leaves its temporary
file (``.gitignore`` covers the names); :func:`remove_stale_temporaries` removes those.
Standard library only, so that every stage may import it.
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from pathlib import Path

# The names write_atomic gives its temporary files: mkstemp's 8 characters of [a-z0-9_].
_TEMPORARY = re.compile(r"^\..+\.[a-z0-9_]{8}\.tmp$")
_NOT_OURS = {"node_modules", ".venv", "venv", ".git", "__pycache__"}


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write ``text`` (UTF-8 with ``\\n`` line ends, or ``bytes`` as they are) to ``path``,
    making its folder if needed, so that the file is always either old or new, never partial;
    the new file has the mode a plain ``open()`` gives. Raises OSError when the folder is not
    writable (then no temporary file is left)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), 0o666 & ~_umask())  # mkstemp makes 0600
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(name, path)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise


def remove_stale_temporaries(folder: Path, older_than_s: float = 10.0) -> list[Path]:
    """Remove the temporary files :func:`write_atomic` leaves when killed mid-write (names as
    in ``_TEMPORARY``), anywhere under ``folder`` except in folders a snippet's own tools make
    (``node_modules``, virtual environments), if last modified more than ``older_than_s``
    seconds ago (a younger one may belong to a write in progress). Returns the removed paths."""
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
