"""Publish a finished build: swap a fully built, guarded site folder into place.

The build goes to a partial folder first; only when the strict build and the guard both
passed is it renamed to ``site/``, so a deploy never picks up a half-written or unguarded site.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path


def swap_in(new: Path, target: Path) -> None:
    """Replace ``target`` with ``new`` by renames: ``target`` is complete old or complete new
    at every moment a reader could look (the old tree is removed only after the swap). The old
    tree waits beside ``new`` (``build/site.old`` for the build), not beside ``target``: a kill
    mid-publish leaves it in the build folder, never in the repository root, and the next
    publish removes it. Both must be on one file system."""
    new, target = Path(new), Path(target)
    if not (new / "index.html").is_file():
        raise FileNotFoundError(f"{new}: not a built site (no index.html); refusing to publish it")
    old = new.with_name(target.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        os.replace(target, old)
    os.replace(new, target)
    shutil.rmtree(old, ignore_errors=True)


if __name__ == "__main__":
    import sys

    swap_in(Path(sys.argv[1]), Path(sys.argv[2]))
