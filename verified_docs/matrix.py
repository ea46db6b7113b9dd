"""The release matrix: every scenario verified against each published toolnexus release.

``verify --report`` writes one report per release; :func:`combine` joins them; :func:`check_since`
holds each scenario to its declared ``since`` (oldest release it needs): it must fail on every
older release and pass on that one and every newer one. The pages show "since" from the
measured matrix, never from a changelog.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .errors import Location, Problem
from .golden import write_atomic
from .scenario import Scenario
from .verify import RunVerdict

MATRIX_FILE = Path("rules") / "release-matrix.json"


def release_key(version: str) -> tuple[int, ...]:
    """``"0.19.0"`` -> ``(0, 19, 0)``; raises ``ValueError`` for anything else."""
    return tuple(int(part) for part in version.split("."))


def write_report(path: Path, toolnexus: str, verdicts: list[RunVerdict]) -> None:
    """One release's outcome: ``{"toolnexus": v, "scenarios": {name: passed}}`` (all runs green)."""
    passed: dict[str, bool] = {}
    for v in verdicts:
        passed[v.scenario.name] = passed.get(v.scenario.name, True) and v.passed
    write_atomic(Path(path), json.dumps({"toolnexus": toolnexus, "scenarios": passed}, indent=2, sort_keys=True) + "\n")


def read_report(path: Path) -> dict:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    release_key(data["toolnexus"])
    return data


@dataclass(frozen=True)
class Matrix:
    """``releases`` oldest first; ``scenarios`` maps a name to {release: passed}."""

    releases: tuple[str, ...]
    scenarios: dict[str, dict[str, bool]]

    def measured_since(self, name: str) -> str | None:
        """The oldest release from which the scenario passes on every newer release, or None."""
        since = None
        for release in reversed(self.releases):
            if not self.scenarios[name].get(release):
                break
            since = release
        return since


def combine(reports: list[dict]) -> Matrix:
    """Join per-release reports. Raises ``ValueError`` when a release appears twice."""
    releases = sorted((r["toolnexus"] for r in reports), key=release_key)
    if len(set(releases)) != len(releases):
        raise ValueError(f"a release was reported twice: {releases}")
    scenarios: dict[str, dict[str, bool]] = {}
    for r in reports:
        for name, ok in r["scenarios"].items():
            scenarios.setdefault(name, {})[r["toolnexus"]] = ok
    return Matrix(tuple(releases), dict(sorted(scenarios.items())))


def check_since(m: Matrix, scenarios: list[Scenario]) -> list[Problem]:
    """Problems for each scenario whose results contradict its ``since`` (default: the oldest
    release in the matrix), and for each scenario missing from the matrix."""
    out = []
    oldest = m.releases[0]
    for s in scenarios:
        results = m.scenarios.get(s.name)
        where = Location(s.yaml_path, 1)
        if results is None or set(results) != set(m.releases):
            out.append(Problem(where, f"{s.name} was not measured on every release ({', '.join(m.releases)})"))
            continue
        since = s.since or oldest
        for release in m.releases:
            should_pass = release_key(release) >= release_key(since)
            if results[release] != should_pass:
                got = "passes" if results[release] else "fails"
                out.append(Problem(where, f"{s.name} declares since {since} but {got} on toolnexus {release}"))
    return out


def save(m: Matrix, path: Path) -> None:
    write_atomic(Path(path), json.dumps({"releases": list(m.releases), "scenarios": m.scenarios},
                                        indent=2, sort_keys=True) + "\n")


def load(path: Path) -> Matrix:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return Matrix(tuple(data["releases"]), data["scenarios"])


def table(m: Matrix) -> str:
    """A plain-text table for the terminal: one row per scenario, one column per release."""
    width = max([len(n) for n in m.scenarios] + [8])
    lines = [" " * width + "  " + "  ".join(f"{r:>7}" for r in m.releases)]
    for name, results in m.scenarios.items():
        lines.append(f"{name:<{width}}  " + "  ".join(f"{'pass' if results.get(r) else 'FAIL':>7}" for r in m.releases))
    return "\n".join(lines)
