"""The release matrix as the pages read it: ``rules/release-matrix.json``, which
``nox -s release-matrix`` measures (:mod:`verified_docs.release.matrix`), as a :class:`Matrix`.

In: the JSON file. Out: for each scenario, the first release it passes on, the later ones it
fails on, and one sentence saying so; :func:`span` and :func:`ranges` name runs of releases.
A row counts only while the scenario's files are those it was measured on (:meth:`Matrix.current`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from verified_docs.scenario.digest import content_digest
from verified_docs.scenario.records import Scenario

MATRIX_FILE = Path("rules") / "release-matrix.json"


@dataclass(frozen=True)
class Matrix:
    """``releases`` oldest first; ``scenarios`` maps a name to {release: passed};
    ``dependencies`` maps a release to what its toolnexus was installed with; ``digests`` maps
    a name to the :func:`~verified_docs.scenario.digest.content_digest` of the files its row
    was measured on."""

    releases: tuple[str, ...]
    scenarios: dict[str, dict[str, bool]]
    dependencies: dict[str, dict[str, str]] = field(default_factory=dict)
    digests: dict[str, str] = field(default_factory=dict)

    def measured_on(self, scenario: Scenario) -> bool:
        """Whether the matrix has a row for ``scenario`` measured on its files as they are now."""
        name = scenario.name
        return name in self.scenarios and self.digests.get(name) == content_digest(scenario)

    def current(self, scenarios: dict[str, Scenario]) -> "Matrix":
        """This matrix with only the rows :meth:`measured_on` the given scenarios (a row of a
        scenario that is gone, or whose files changed, backs no sentence)."""
        keep = [n for n, s in scenarios.items() if self.measured_on(s)]
        return Matrix(
            self.releases,
            {n: self.scenarios[n] for n in self.scenarios if n in keep},
            self.dependencies,
            {n: self.digests[n] for n in keep},
        )

    def measured_since(self, name: str) -> str | None:
        """The first (oldest) release on which the scenario passes, or None if it passes on none."""
        return next((r for r in self.releases if self.scenarios[name].get(r)), None)

    def fails_after_since(self, name: str) -> tuple[str, ...]:
        """Releases newer than :meth:`measured_since` on which the scenario fails (empty when
        it passes on every release from its first)."""
        since = self.measured_since(name)
        if since is None:
            return ()
        later = self.releases[self.releases.index(since) + 1 :]
        return tuple(r for r in later if not self.scenarios[name].get(r))

    def since_sentence(self, name: str) -> str:
        """One plain sentence for a page: the first passing release, and what the later ones did."""
        since = self.measured_since(name)
        if since is None:
            return f"Passes on none of the {len(self.releases)} toolnexus releases measured ({span(self.releases)})."
        fails = self.fails_after_since(name)
        later = (
            "every later release measured"
            if not fails
            else f"later releases too, except {', '.join(ranges(self.releases, fails))}, where it fails"
        )
        first = "the oldest release measured" if since == self.releases[0] else "the first release on which it passes"
        return (
            f"Passes from toolnexus {since} ({first}) and on {later}; "
            f"measured on {len(self.releases)} releases, {span(self.releases)}."
        )


def span(releases: tuple[str, ...] | list[str]) -> str:
    """``"0.6.0 to 0.21.0"`` for a list of releases, oldest first."""
    return f"{releases[0]} to {releases[-1]}" if len(releases) > 1 else releases[0]


def ranges(releases: tuple[str, ...], chosen: tuple[str, ...] | list[str]) -> list[str]:
    """``chosen`` (a subset of ``releases``) as runs of neighbours in ``releases``:
    ``["0.6.0–0.9.5", "0.18.0"]``."""
    out: list[list[str]] = []
    picked = set(chosen)
    previous = None
    for r in releases:
        if r in picked:
            if previous is not None and previous in picked and out:
                out[-1].append(r)
            else:
                out.append([r])
        previous = r
    return [run[0] if len(run) == 1 else f"{run[0]}–{run[-1]}" for run in out]


def load(path: Path) -> Matrix:
    """Read a matrix written by :func:`save`."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return Matrix(tuple(data["releases"]), data["scenarios"], data.get("dependencies", {}), data.get("digests", {}))
