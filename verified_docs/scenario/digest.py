"""What a scenario's verdict rests on in files: :func:`content_digest` over its folder and its
support files, by paths relative to the scenario's folder, so two clones holding the same
files agree (an untracked file in the folder counts too).

The result cache keys an entry by it (with the machinery and the interpreter), and the release
matrix records it per row, so a row stays current while the files it measured are unchanged.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import ContextManager

from verified_docs.scenario.records import Scenario
from verified_docs.scoped_memo import ScopedMemo

_SKIPPED_PARTS = {"__pycache__", ".pytest_cache"}


def files_under(folder: Path) -> list[Path]:
    """Every file below ``folder``, sorted, leaving out Python's and pytest's own caches."""
    return sorted(
        p for p in folder.rglob("*") if p.is_file() and not _SKIPPED_PARTS.intersection(p.relative_to(folder).parts)
    )


def digest_files(paths: list[Path], base: Path, h: "hashlib._Hash") -> None:
    """Feed ``h`` each path (relative to ``base``, posix) and the SHA-256 of its bytes."""
    real_base = os.path.realpath(base)
    for path in paths:
        h.update(Path(os.path.relpath(os.path.realpath(path), real_base)).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())


# Digests taken inside digests_kept(), by scenario folder and support files.
_DIGESTS: ScopedMemo[str] = ScopedMemo()


def digests_kept() -> ContextManager[None]:
    """Inside the block, :func:`content_digest` reads each scenario's files once. The author
    loop's build asks for every scenario's digest twice (its page digests, the release
    matrix's rows), just before rendering; a file saved meanwhile starts the next cycle, which
    reads it again. Nested blocks share the outer one's digests."""
    return _DIGESTS.kept()


def content_digest(scenario: Scenario) -> str:
    """Hex SHA-256 of every file in the scenario's folder (programs, golden outputs, the
    scenario file, data) and of its support files outside it (once per
    :func:`digests_kept` block). Raises ``OSError`` when a file cannot be read."""
    key = (scenario.folder, tuple(s.path for s in scenario.support))
    return _DIGESTS.get(key, lambda: _content_digest(scenario))


def _content_digest(scenario: Scenario) -> str:
    h = hashlib.sha256()
    folder = scenario.folder
    real = folder.resolve()
    outside = sorted({p for s in scenario.support if real not in (p := s.path.resolve()).parents})
    digest_files(files_under(folder) + outside, folder, h)
    return h.hexdigest()
