"""Which lines of a scenario's own files ran, measured by coverage.py in the snippet's process.

The runner names a data file prefix (``VERIFIED_DOCS_COVERAGE``) and the files to measure
(``VERIFIED_DOCS_COVERAGE_FILES``, joined by ``os.pathsep``) in the snippet's environment; the
tracer's ``sitecustomize`` starts coverage.py from them in every Python process that carries
that environment (the program, and a Python process it starts with the same environment), each
writing its own data file. After the run, :func:`collect` combines them and asks coverage.py
for each file's statements, excluded lines and executed lines.

A line shown "for completeness" that is not meant to run (an ``except`` branch, say) carries
the visible marker ``# not run`` (:data:`NOT_RUN`); coverage.py's exclusion takes the whole
block it opens. Nothing else is excluded: not even ``# pragma: no cover``, which a reader
would not read as "this did not run here".
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

# The marker, as a coverage.py exclusion regex (matched against each source line).
NOT_RUN = r"#\s*not run\b"
# The tracer (runner/tracer/sitecustomize.py, which imports nothing of this package) reads the
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
        return {"statements": sorted(self.statements), "excluded": sorted(self.excluded),
                "executed": sorted(self.executed)}

    @classmethod
    def from_json(cls, data: dict[str, list[int]]) -> "FileLines":
        return cls(frozenset(data["statements"]), frozenset(data["excluded"]), frozenset(data["executed"]))

    def merged(self, other: "FileLines") -> "FileLines":
        """The same file measured in another run: lines executed in either."""
        return FileLines(self.statements, self.excluded, self.executed | other.executed)


def environment(data_prefix: Path, files: list[Path]) -> dict[str, str]:
    """Environment additions that make the tracer measure ``files`` into ``data_prefix``.*."""
    return {DATA_ENV: str(data_prefix), FILES_ENV: os.pathsep.join(os.path.realpath(f) for f in files)}


def _coverage(data_prefix: Path):
    import coverage

    cov = coverage.Coverage(data_file=str(data_prefix), config_file=False)
    cov.clear_exclude()
    cov.exclude(NOT_RUN)
    return cov


def collect(data_prefix: Path, files: list[Path]) -> dict[str, FileLines]:
    """Combine every data file ``data_prefix``.* written during a run and return the lines of
    each of ``files`` by its real path. A file no process measured (the run died before
    coverage started, or it ran in a process without the environment) has no executed lines;
    a file coverage.py cannot parse (not Python, or gone) is left out."""
    from coverage.exceptions import NoSource, NotPython

    cov = _coverage(data_prefix)
    parts = sorted(str(p) for p in data_prefix.parent.glob(data_prefix.name + ".*"))
    if parts:
        cov.combine(parts, keep=False)
    data = cov.get_data()
    out = {}
    for path in files:
        real = os.path.realpath(path)
        try:
            _, statements, excluded, _, _ = cov.analysis2(real)
        except (NoSource, NotPython):
            continue  # the run failed on it already (a syntax error, say); nothing to show
        out[real] = FileLines(frozenset(statements), frozenset(excluded), frozenset(data.lines(real) or ()))
    return out
