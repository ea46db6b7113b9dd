"""The release matrix: every scenario verified against each published toolnexus release.

The releases measured are listed once, in ``rules/releases.txt`` (oldest first, the pin left
out), and the pin is read from ``pyproject.toml``. ``verify --report`` writes one report per
release, stamped with the digest of its inputs (:func:`inputs_digest`) so that ``nox -s
release-matrix`` re-runs only a release whose inputs changed; :func:`combine` joins the reports and
:func:`merge` puts one scenario's rows into the matrix (``--only``); :func:`row_problems` finds
the scenarios without a row measured on their present files. A scenario's ``since`` is the
first release its row passes on, never written by hand. A scenario that passes, then fails on a later release, then passes again is reported
with the releases where it fails (:meth:`Matrix.fails_after_since`), never smoothed over.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import tomllib
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from verified_docs.cache import ResultCache, machinery_digest
from verified_docs.errors import Location, Problem, SourceError
from verified_docs.files import write_atomic
from verified_docs.render.release_matrix import MATRIX_FILE, Matrix, ranges, span
from verified_docs.scenario.digest import content_digest
from verified_docs.scenario.records import Scenario
from verified_docs.verify.verdict import RunVerdict

RELEASES_FILE = Path("rules") / "releases.txt"
_VERSION = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+$")
_PIN = re.compile(r"^toolnexus==([0-9]+\.[0-9]+\.[0-9]+)$")


def release_key(version: str) -> tuple[int, ...]:
    """``"0.19.0"`` -> ``(0, 19, 0)``; raises ``ValueError`` for anything else."""
    return tuple(int(part) for part in version.split("."))


def pinned_release(root: Path) -> str:
    """The ``toolnexus==X.Y.Z`` pin in ``root/pyproject.toml`` (the only place it is written).

    Raises :class:`SourceError` at the file when there is no such pin."""
    path = Path(root) / "pyproject.toml"
    deps = tomllib.loads(path.read_text(encoding="utf-8")).get("project", {}).get("dependencies", [])
    pins = [m.group(1) for m in (_PIN.match(d.replace(" ", "")) for d in deps) if m]
    if len(pins) != 1:
        raise SourceError.at(path, 0, f"project.dependencies: expected one toolnexus==X.Y.Z pin, got {len(pins)}")
    return pins[0]


def listed_releases(root: Path) -> list[str]:
    """The earlier releases ``rules/releases.txt`` lists, oldest first (``#`` starts a comment).

    Raises :class:`SourceError` at the line of a malformed, repeated or out-of-order version."""
    path = Path(root) / RELEASES_FILE
    out: list[str] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if not _VERSION.match(line):
            raise SourceError.at(path, number, f"expected a release like 0.19.0, got {line!r}")
        if out and release_key(line) <= release_key(out[-1]):
            raise SourceError.at(
                path,
                number,
                f"releases must be listed oldest first without repeats: expected one newer than {out[-1]}, got {line}",
            )
        out.append(line)
    return out


def expected_releases(root: Path) -> list[str]:
    """Every release the matrix must measure: :func:`listed_releases`, then the pin.

    Raises :class:`SourceError` when the list already holds the pin or a newer release."""
    listed, pin = listed_releases(root), pinned_release(root)
    if listed and release_key(listed[-1]) >= release_key(pin):
        raise SourceError.at(
            Path(root) / RELEASES_FILE,
            0,
            f"list only releases older than the pin {pin} (pyproject.toml); got {listed[-1]}",
        )
    return [*listed, pin]


def inputs_digest(scenarios: list[Scenario], release: str, languages: tuple[str, ...] | None = None) -> str:
    """SHA-256 of what decides a release's report: every scenario's files and support files
    (as the result cache keys them), the verification machinery, the interpreter and the
    toolnexus version. A published release's files never change, so its version stands for
    them; this is what lets the matrix skip a release without installing it."""
    context = ResultCache(Path(), f"{machinery_digest()}\0{sys.version}\0toolnexus=={release}")
    h = hashlib.sha256()
    for s in sorted(scenarios, key=lambda s: s.name):
        h.update(f"{s.name}\0{context.key(s, languages)}\0".encode())
    return h.hexdigest()


def dependency_versions(package: str = "toolnexus") -> dict[str, str]:
    """Installed version of each distribution ``package`` requires (extras left out), so a
    report says what an old release was measured with (its ``mcp``, say)."""
    try:
        requires = distribution(package).requires or []
    except PackageNotFoundError:
        return {}
    out = {}
    for req in requires:
        if "extra ==" in req:
            continue
        name = re.split(r"[ ;<>=!~\[(]", req, maxsplit=1)[0]
        try:
            out[name] = distribution(name).version
        except PackageNotFoundError:
            out[name] = "not installed"
    return dict(sorted(out.items()))


def write_report(
    path: Path, toolnexus: str, verdicts: list[RunVerdict], *, inputs: str = "", verify_s: float = 0.0
) -> None:
    """One release's outcome: ``{"toolnexus": v, "scenarios": {name: passed}, "digests": {name:
    content digest}, "problems": {name: [line, ...]}, "inputs": digest, "dependencies": {...},
    "verify_s": seconds}``; a scenario passes when all its runs do; ``digests`` name the files
    each was measured on (:func:`~verified_docs.scenario.digest.content_digest`); ``problems``
    holds a failing scenario's problems, the first line of each (what the new-release alarm
    reports, :mod:`verified_docs.release.alarm`)."""
    passed: dict[str, bool] = {}
    digests: dict[str, str] = {}
    problems: dict[str, list[str]] = {}
    for v in verdicts:
        passed[v.scenario.name] = passed.get(v.scenario.name, True) and v.passed
        digests.setdefault(v.scenario.name, content_digest(v.scenario))
        if v.problems:
            problems.setdefault(v.scenario.name, []).extend(
                f"{v.run.name}[{v.language}]: {str(p).splitlines()[0]}" for p in v.problems
            )
    write_atomic(
        Path(path),
        json.dumps(
            {
                "toolnexus": toolnexus,
                "scenarios": passed,
                "digests": digests,
                "problems": problems,
                "inputs": inputs,
                "dependencies": dependency_versions(),
                "verify_s": round(verify_s, 2),
            },
            indent=2,
            sort_keys=True,
        )
        + "\n",
    )


def read_report(path: Path) -> dict:
    """A report written by :func:`write_report`; raises ``ValueError`` or ``KeyError`` when malformed."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    release_key(data["toolnexus"])
    return data


@dataclass(frozen=True)
class Planned:
    """One release in a matrix run: ``cached`` when its report's inputs are unchanged."""

    release: str
    cached: bool
    verify_s: float = 0.0


def plan(
    root: Path, scenarios: list[Scenario], reports: Path, languages: tuple[str, ...] | None = None
) -> list[Planned]:
    """For every expected release (oldest first), whether ``reports/<release>.json`` was made
    from the current inputs (``languages`` as ``verify`` will be given them). A missing,
    damaged or stale report means the release runs."""
    out = []
    for release in expected_releases(root):
        try:
            report = read_report(Path(reports) / f"{release}.json")
            fresh = (
                report.get("inputs") == inputs_digest(scenarios, release, languages) and report["toolnexus"] == release
            )
        except (OSError, ValueError, KeyError):
            fresh, report = False, {}
        out.append(Planned(release, fresh, float(report.get("verify_s", 0.0)) if fresh else 0.0))
    return out


def combine(reports: list[dict]) -> Matrix:
    """Join per-release reports. Raises ``ValueError`` when a release appears twice, or when
    two releases measured a scenario on different files (it was edited mid-run)."""
    releases = sorted((r["toolnexus"] for r in reports), key=release_key)
    if len(set(releases)) != len(releases):
        raise ValueError(f"a release was reported twice: {releases}")
    scenarios: dict[str, dict[str, bool]] = {}
    digests: dict[str, str] = {}
    for r in reports:
        for name, ok in r["scenarios"].items():
            scenarios.setdefault(name, {})[r["toolnexus"]] = ok
        for name, digest in r.get("digests", {}).items():
            if digests.setdefault(name, digest) != digest:
                raise ValueError(f"{name} changed while the matrix measured it: its files differ between releases")
    dependencies = {r["toolnexus"]: r.get("dependencies", {}) for r in reports}
    return Matrix(
        tuple(releases),
        dict(sorted(scenarios.items())),
        dict(sorted(dependencies.items(), key=lambda kv: release_key(kv[0]))),
        dict(sorted(digests.items())),
    )


def merge(base: Matrix, measured: Matrix) -> Matrix:
    """``base`` with the rows of ``measured`` (one scenario measured alone, say) put in place
    of its own. Raises ``ValueError`` when the two measured different releases: the whole
    matrix must be measured again (``nox -s release-matrix``)."""
    if base.releases != measured.releases:
        raise ValueError(
            f"the matrix measures {span(base.releases)} ({len(base.releases)} releases), this run "
            f"{span(measured.releases)} ({len(measured.releases)}); run the whole matrix: nox -s release-matrix"
        )
    return Matrix(
        base.releases,
        dict(sorted({**base.scenarios, **measured.scenarios}.items())),
        base.dependencies,
        dict(sorted({**base.digests, **measured.digests}.items())),
    )


def coverage_problems(m: Matrix, expected: list[str], where: Path) -> list[Problem]:
    """A problem when the matrix does not hold exactly the ``expected`` releases (``where`` is
    the matrix file, for the message)."""
    if list(m.releases) == list(expected):
        return []
    missing = [r for r in expected if r not in m.releases]
    extra = [r for r in m.releases if r not in expected]
    return [
        Problem(
            Location(Path(where), 0),
            f"the matrix must measure {span(expected)} ({len(expected)} releases); "
            f"missing: {', '.join(missing) or 'none'}; not listed: "
            f"{', '.join(extra) or 'none'}",
            (
                f"releases are listed in {RELEASES_FILE} (the pin comes from pyproject.toml); "
                "re-run `nox -s release-matrix`",
            ),
        )
    ]


def row_problems(m: Matrix, scenarios: list[Scenario]) -> list[Problem]:
    """A problem, at the scenario's ``scenario.yaml``, for each scenario the matrix has no row
    for, whose row was measured on other files than its present ones, or that passes on no
    release measured. Failures on releases after the first pass are not problems: the pages
    show them (:meth:`Matrix.fails_after_since`). A scenario's ``since`` is never written by
    hand: it is the first release its row passes on (:meth:`Matrix.measured_since`)."""
    out = []
    for s in scenarios:
        where = Location(s.yaml_path, 0)
        fix = (f"run `nox -s release-matrix -- --only {s.name}` (it measures this scenario on every release)",)
        if s.name not in m.scenarios or set(m.scenarios[s.name]) != set(m.releases):
            out.append(Problem(where, f"{s.name} is not in the release matrix ({MATRIX_FILE})", fix))
        elif not m.measured_on(s):
            out.append(Problem(where, f"{s.name} changed since the release matrix measured it", fix))
        elif m.measured_since(s.name) is None:
            out.append(
                Problem(
                    where,
                    f"{s.name} passes on no release measured ({span(m.releases)})",
                    ("it fails on the pinned release too: `nox -s docs` shows why",),
                )
            )
    return out


def save(m: Matrix, path: Path) -> None:
    """Write the matrix as JSON (atomically)."""
    write_atomic(
        Path(path),
        json.dumps(
            {
                "releases": list(m.releases),
                "scenarios": m.scenarios,
                "dependencies": m.dependencies,
                "digests": m.digests,
            },
            indent=2,
            sort_keys=True,
        )
        + "\n",
    )


def table(m: Matrix) -> str:
    """A plain-text table for the terminal: one row per scenario with its first passing
    release, the releases it passes on and those it fails on after that."""
    width = max([len(n) for n in m.scenarios] + [8])
    lines = [f"{'scenario':<{width}}  {'since':<8}  passes on / fails on after since"]
    for name in m.scenarios:
        since = m.measured_since(name) or "never"
        passing = [r for r in m.releases if m.scenarios[name].get(r)]
        fails = m.fails_after_since(name)
        note = ", ".join(ranges(m.releases, passing)) or "-"
        if fails:
            note += "   FAILS AGAIN ON " + ", ".join(ranges(m.releases, fails))
        lines.append(f"{name:<{width}}  {since:<8}  {note}")
    return "\n".join(lines)
