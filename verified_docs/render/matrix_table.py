"""Render the release matrix (measured by ``nox -s release-matrix``) as a Markdown table."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from verified_docs.errors import Problem, SourceError
from verified_docs.render.anchors import matrix_anchor
from verified_docs.render.directive import Directive
from verified_docs.render.release_matrix import Matrix, ranges, span
from verified_docs.render.templating import render
from verified_docs.scenario.records import Scenario


@dataclass(frozen=True)
class MatrixRow:
    """One scenario: its first passing release, where it passes, and where it fails after
    that first pass (``fails_again`` empty when it passes on every later release)."""

    label: str
    since: str
    passes: str
    fails_before: str
    fails_again: str
    anchor: str = ""
    measured: bool = True


def render_matrix(
    directive: Directive, page: str, m: Matrix | None, scenarios: dict[str, Scenario], pages: dict[str, list[str]]
) -> str:
    """A table row per scenario (linked to its first page) with the release it first passes
    on, the releases it passes on, and those it fails on before and after that.

    A scenario ``m`` holds no current row for (new, or edited since it was measured) gets a row
    saying so and no releases: the build warns about it, and the tests job fails on it
    (``tests/test_contract_and_matrix.py``), so a published page never shows one.

    Raises :class:`SourceError` at the directive when there is no matrix."""
    if m is None:
        raise SourceError(Problem(directive.where, "no release matrix; run `nox -s release-matrix`"))
    rows = []
    for name, scenario in scenarios.items():
        label = scenario.title
        if pages.get(name):
            label = f"[{scenario.title}]({posixpath.relpath(pages[name][0], posixpath.dirname(page) or '.')})"
        if name not in m.scenarios:
            rows.append(
                MatrixRow(
                    label, "not measured", "not measured on its present files", "", "", matrix_anchor(name), False
                )
            )
            continue
        since = m.measured_since(name)
        results = m.scenarios[name]
        passing = [r for r in m.releases if results.get(r)]
        first = m.releases.index(since) if since is not None else len(m.releases)
        before = [r for r in m.releases[:first] if not results.get(r)]
        again = m.fails_after_since(name)
        rows.append(
            MatrixRow(
                label,
                since or "passes on none",
                ", ".join(ranges(m.releases, passing)) or "none",
                ", ".join(ranges(m.releases, before)) or "none",
                ", ".join(ranges(m.releases, again)),
                matrix_anchor(name),
            )
        )
    return render(
        "matrix.md.j2",
        directive.indent,
        directive=directive,
        releases=m.releases,
        span=span(m.releases),
        rows=rows,
        dependencies=_dependency_note(m),
    )


def _dependency_note(m: Matrix) -> str:
    """``"mcp 1.30.0, pyyaml 6.0.4"`` when every release was measured with the same versions,
    else each release's set."""
    seen = {tuple(sorted(d.items())) for d in m.dependencies.values()}
    if not seen:
        return ""
    if len(seen) == 1:
        return ", ".join(f"{k} {v}" for k, v in next(iter(seen)))
    return "; ".join(f"{r}: " + ", ".join(f"{k} {v}" for k, v in sorted(d.items())) for r, d in m.dependencies.items())
