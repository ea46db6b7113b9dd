"""Publish a finished build: swap a fully built, guarded site folder into place.

The build goes to a partial folder first; only when the strict build and the guard both
passed is it swapped in as ``site/``, so a deploy never picks up a half-written or unguarded site.
"""

from __future__ import annotations

import ctypes
import errno
import filecmp
import os
import shutil
from pathlib import Path

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2  # linux/fs.h


def _exchange(a: Path, b: Path) -> bool:
    """Swap the paths ``a`` and ``b`` in one step (``renameat2`` with ``RENAME_EXCHANGE``):
    True when done, False where the kernel, the C library, the file system or a seccomp filter
    will not. Python's ``os`` has no ``renameat2``; the one PyPI package wrapping it
    (``renameat2``) would be a dependency for this single call, hence ctypes.
    Kept over two plain renames (old tree aside, new one in): a reader looking between them
    finds no site/ (tests/test_publish.py)."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):  # not glibc >= 2.28, or not Linux
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    renameat2.restype = ctypes.c_int
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.EPERM):
        return False  # EPERM: a seccomp profile refusing the call; the renames then say if it is real
    raise OSError(err, os.strerror(err), str(a), None, str(b))


def swap_in(new: Path, target: Path) -> None:
    """Replace the folder ``target`` with the built site ``new``; both must be on one file system.

    ``new`` is first renamed to ``<target name>.old`` beside it (``build/rendered/site.old`` for
    the build). Where Linux allows it, that folder and ``target`` are then exchanged in one step,
    so ``target`` is the complete old or the complete new tree at every moment a reader could
    look; elsewhere it takes renames, and for a moment there is no ``target`` at all. The old
    tree, now at ``<target name>.old``, is removed: a kill mid-publish leaves it in the build
    folder, never in the repository root, and the next publish removes it.

    Raises FileNotFoundError when ``new`` has no ``index.html`` (``target`` is left as it was)."""
    new, target = Path(new), Path(target)
    if not (new / "index.html").is_file():
        raise FileNotFoundError(f"{new}: not a built site (no index.html); refusing to publish it")
    old = new.with_name(target.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if not target.exists():
        os.replace(new, target)
        return
    os.replace(new, old)  # the new tree waits where the old one will be left
    if not _exchange(old, target):
        os.replace(target, new)  # no exchange here: the old tree steps aside, the new one moves in
        os.replace(old, target)
        os.replace(new, old)
    shutil.rmtree(old, ignore_errors=True)


def sync_into(new: Path, target: Path) -> int:
    """Make the folder ``target`` hold what the built site ``new`` holds, copying only the
    files whose size or modification time differ (each through a temporary file and a rename,
    so no reader sees half a file) and removing those ``new`` lacks; ``new`` stays. For the
    author loop, whose preview server answers no page while a cycle runs, so that it never
    shows a mix of two builds: a cycle rebuilds a few pages of a site that stays in place, and
    copying a few files beats copying the whole tree to exchange it. Where ``target`` holds no
    site yet, a copy of ``new`` is swapped in (:func:`swap_in`). A file of the same size but
    another time is compared byte for byte, and only given the new time when the bytes agree:
    a generator that writes every page again (Zensical does) then costs a read, not a copy.
    Returns how many files were copied or removed. Raises FileNotFoundError when ``new`` has no ``index.html``."""
    new, target = Path(new), Path(target)
    if not (new / "index.html").is_file():
        raise FileNotFoundError(f"{new}: not a built site (no index.html); refusing to publish it")
    if not (target / "index.html").is_file():
        copy = new.with_name(new.name + ".copy")
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(new, copy)
        swap_in(copy, target)
        return sum(1 for p in target.rglob("*") if p.is_file())
    done = 0
    wanted = set()
    for path in sorted(p for p in new.rglob("*") if p.is_file()):
        rel = path.relative_to(new)
        wanted.add(rel)
        there = target / rel
        mine = path.stat()
        try:
            theirs = there.stat()
            if theirs.st_size == mine.st_size:
                if theirs.st_mtime_ns == mine.st_mtime_ns:
                    continue
                if filecmp.cmp(path, there, shallow=False):
                    os.utime(there, ns=(mine.st_atime_ns, mine.st_mtime_ns))
                    continue
        except FileNotFoundError:
            there.parent.mkdir(parents=True, exist_ok=True)
        partial = there.with_name(f".{there.name}.sync.tmp")
        shutil.copy2(path, partial)
        os.replace(partial, there)
        done += 1
    for path in sorted(target.rglob("*"), reverse=True):
        rel = path.relative_to(target)
        if path.is_file() and rel not in wanted:
            path.unlink()
            done += 1
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    return done


if __name__ == "__main__":
    import sys

    swap_in(Path(sys.argv[1]), Path(sys.argv[2]))
