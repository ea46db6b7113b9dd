"""Render the release matrix (measured by ``nox -s release-matrix``) as a Markdown table."""
from __future__ import annotations

import posixpath
from dataclasses import dataclass

from ..anchors import matrix_anchor
from ..directive import Directive
from ..errors import Problem, SourceError
from ..matrix import Matrix
from ..scenario import Scenario
from .templating import render


@dataclass(frozen=True)
class MatrixRow:
    """One scenario's row; ``anchor`` is the id a claim about its "since" links to."""

    label: str
    since: str
    results: tuple[bool, ...]
    anchor: str = ""


def render_matrix(directive: Directive, page: str, m: Matrix | None, scenarios: dict[str, Scenario],
                  pages: dict[str, list[str]]) -> str:
    """A table row per scenario (linked to its first page), a column per release.

    Raises :class:`SourceError` at the directive when there is no matrix, or when it misses a
    scenario of this build (the matrix is stale: re-run ``nox -s release-matrix``)."""
    if m is None:
        raise SourceError(Problem(directive.where, "no release matrix; run `nox -s release-matrix`"))
    missing = sorted(set(scenarios) - set(m.scenarios))
    if missing:
        raise SourceError(Problem(directive.where, "the release matrix is stale: it lacks " + ", ".join(missing),
                                  ("run `nox -s release-matrix`",)))
    rows = []
    for name, scenario in scenarios.items():
        label = scenario.title
        if pages.get(name):
            label = f"[{scenario.title}]({posixpath.relpath(pages[name][0], posixpath.dirname(page) or '.')})"
        since = m.measured_since(name)
        rows.append(MatrixRow(label, since or "not passing", tuple(m.scenarios[name].get(r, False) for r in m.releases),
                              matrix_anchor(name)))
    return render("matrix.md.j2", directive.indent, releases=m.releases, rows=rows)
