"""Which lines of a scenario's own files ran, measured by coverage.py in the snippet's process.

The runner names a data file prefix (``VERIFIED_DOCS_COVERAGE``) and the files to measure
(``VERIFIED_DOCS_COVERAGE_FILES``, joined by ``os.pathsep``) in the snippet's environment; the
tracer's ``sitecustomize`` starts coverage.py from them in every Python process that carries
that environment (the program, and a Python process it starts with the same environment), each
writing its own data file. After the run, :func:`collect` reads them and asks coverage.py for
each file's statements, excluded lines and executed lines.

A line shown "for completeness" that is not meant to run (an ``except`` branch, say) carries
the visible marker ``# not run`` (:data:`NOT_RUN`); coverage.py's exclusion takes the whole
block it opens. Nothing else is excluded: not even ``# pragma: no cover``, which a reader
would not read as "this did not run here".
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

# The marker, as a coverage.py exclusion regex (matched against each source line).
NOT_RUN = r"#\s*not run\b"
# The tracer (run/tracer/sitecustomize.py, which imports nothing of this package) reads the
# same two names.
DATA_ENV, FILES_ENV = "VERIFIED_DOCS_COVERAGE", "VERIFIED_DOCS_COVERAGE_FILES"


@dataclass(frozen=True)
class FileLines:
    """One file's lines (1-based): ``statements`` coverage.py can measure, ``excluded`` by the
    ``# not run`` marker (whole blocks), and ``executed`` in the run, excluded ones included."""

    statements: frozenset[int]
    excluded: frozenset[int]
    executed: frozenset[int]

    def to_json(self) -> dict[str, list[int]]:
        return {
            "statements": sorted(self.statements),
            "excluded": sorted(self.excluded),
            "executed": sorted(self.executed),
        }

    @classmethod
    def from_json(cls, data: dict[str, list[int]]) -> "FileLines":
        return cls(frozenset(data["statements"]), frozenset(data["excluded"]), frozenset(data["executed"]))

    def merged(self, other: "FileLines") -> "FileLines":
        """The same file measured in another run: lines executed in either."""
        return FileLines(self.statements, self.excluded, self.executed | other.executed)


def environment(data_prefix: Path, files: list[Path]) -> dict[str, str]:
    """Environment additions that make the tracer measure ``files`` into ``data_prefix``.*."""
    return {DATA_ENV: str(data_prefix), FILES_ENV: os.pathsep.join(os.path.realpath(f) for f in files)}


def _coverage(data_prefix: Path | None):
    import coverage

    cov = coverage.Coverage(data_file=str(data_prefix) if data_prefix else None, config_file=False)
    cov.clear_exclude()
    cov.exclude(NOT_RUN)
    return cov


# Scenarios are verified in threads, and CPython 3.11's parser is not safe to enter from two
# threads at once: it fails now and then with "SystemError: AST constructor recursion depth
# mismatch" (python/cpython#106905), seen here under the mutation check. One parse at a time.
_PARSE = threading.Lock()


@lru_cache(maxsize=None)
def _static(real: str, sha256: str) -> tuple[frozenset[int], frozenset[int]] | None:
    """(statements, excluded) of the file at ``real`` whose content has ``sha256``: coverage.py's
    static analysis, done once per content per process (every run of a scenario measures the
    same files). None for a file coverage.py cannot parse."""
    from coverage.exceptions import NoSource, NotPython

    with _PARSE:
        try:
            _, statements, excluded, _, _ = _coverage(None).analysis2(real)
        except (NoSource, NotPython):
            return None
    return frozenset(statements), frozenset(excluded)


def collect(data_prefix: Path, files: list[Path]) -> dict[str, FileLines]:
    """Read every data file ``data_prefix``.* written during a run (one per measured process)
    and return the lines of each of ``files`` by its real path. A file no process measured
    (the run died before coverage started, or it ran in a process without the environment) has
    no executed lines; a file coverage.py cannot parse (not Python, or gone) is left out.

    The data files are read, not combined: combining writes a merged database the build never
    needs (a third of this function's cost when it did)."""
    from coverage import CoverageData

    executed: dict[str, set[int]] = {}
    for part in sorted(data_prefix.parent.glob(data_prefix.name + ".*")):
        data = CoverageData(basename=str(part))
        data.read()
        for measured in data.measured_files():
            executed.setdefault(measured, set()).update(data.lines(measured) or ())
    out = {}
    for path in files:
        real = os.path.realpath(path)
        try:
            digest = hashlib.sha256(Path(real).read_bytes()).hexdigest()
        except OSError:
            continue
        static = _static(real, digest)
        if static is None:
            continue  # the run failed on it already (a syntax error, say); nothing to show
        out[real] = FileLines(static[0], static[1], frozenset(executed.get(real, ())))
    return out
