"""The build's clock: ``SOURCE_DATE_EPOCH`` from the last commit, so one commit gives one site.

MkDocs dates the sitemap (``sitemap.xml``'s ``lastmod``, the ``sitemap.xml.gz`` header) with
``SOURCE_DATE_EPOCH`` when it is set, else with today's date; nothing else in the site depends
on the clock. See https://reproducible-builds.org/specs/source-date-epoch/.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

VARIABLE = "SOURCE_DATE_EPOCH"


def last_commit_time(root: Path) -> int | None:
    """The committer time of ``root``'s last commit, in seconds since the epoch, or None when
    ``root`` is not in a git checkout with a commit (or git is missing)."""
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "log", "-1", "--format=%ct"], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    value = done.stdout.strip()
    return int(value) if done.returncode == 0 and value.isdigit() else None


def set_source_date_epoch(root: Path, env: dict[str, str] | os._Environ = os.environ) -> str:
    """Set ``env[SOURCE_DATE_EPOCH]`` to the last commit's time unless the caller set it; return
    one line for the build log saying which clock the site is dated with."""
    if env.get(VARIABLE):
        return f"{VARIABLE}={env[VARIABLE]} (set by the caller)"
    when = last_commit_time(root)
    if when is None:
        return f"{VARIABLE} not set and {root} has no git commit: the sitemap carries today's date"
    env[VARIABLE] = str(when)
    return f"{VARIABLE}={when} (the last commit's time)"
