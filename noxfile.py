"""Task runner: `nox -s docs` builds the verified site, `nox -s tests` runs the test suite."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import nox

nox.options.default_venv_backend = "uv|virtualenv"
nox.options.sessions = ["docs", "tests"]
nox.options.error_on_missing_interpreters = True

ROOT = Path(__file__).parent
QUIET_MKDOCS = {"NO_MKDOCS_2_WARNING": "1"}
# The published releases the matrix measures, oldest first; the pinned one (read from
# pyproject.toml, the only place it is written) is appended. Add a release here when it ships.
EARLIER_RELEASES = ["0.18.1", "0.19.0", "0.20.0"]


def _pinned_toolnexus() -> str:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    match = re.search(r'"toolnexus==([0-9.]+)"', text)
    if match is None:
        raise RuntimeError("pyproject.toml: no toolnexus==X.Y.Z pin found")
    return match.group(1)


@nox.session
def docs(session: nox.Session) -> None:
    """Verify every example, run the docs' Python fences, build strictly, guard the result, then publish to site/."""
    session.install("-e", ".[docs]")
    session.run("python", "-m", "verified_docs", "verify", *session.posargs)
    fences = ROOT / "build" / "executed-fences.json"
    session.run("python", "-m", "pytest", "docs", "-q", "-p", "no:cacheprovider",
                env={"VERIFIED_DOCS_FENCES_OUT": str(fences)})
    partial = ROOT / "build" / "site.partial"
    shutil.rmtree(partial, ignore_errors=True)
    session.run("python", "-m", "mkdocs", "build", "--strict", "-d", str(partial), env=QUIET_MKDOCS)
    session.run("python", "-m", "verified_docs", "guard", "--site", str(partial), "--fences", str(fences))
    session.run("python", "-m", "verified_docs.publish", str(partial), str(ROOT / "site"))
    session.log(f"site built in {ROOT / 'site'}")


@nox.session
def tests(session: nox.Session) -> None:
    """Unit tests of the machinery, every example, the strict build and the guard (args go to pytest)."""
    session.install("-e", ".[test]")
    session.run("python", "-m", "pytest", *session.posargs, env=QUIET_MKDOCS)


@nox.session(default=False)
def serve(session: nox.Session) -> None:
    """Verify every example, then preview the site at http://127.0.0.1:8000 (re-run to re-verify)."""
    session.install("-e", ".[docs]")
    session.run("python", "-m", "verified_docs", "verify")
    session.run("python", "-m", "mkdocs", "serve", "--strict", *session.posargs, env=QUIET_MKDOCS)


@nox.session(name="update-outputs", default=False)
def update_outputs(session: nox.Session) -> None:
    """Rewrite golden outputs from a verified run (only runs whose evidence holds; atomic; unchanged files untouched)."""
    session.install("-e", ".")
    session.run("python", "-m", "verified_docs", "verify", "--update-outputs", *session.posargs)


@nox.session(name="release-matrix", default=False)
def release_matrix(session: nox.Session) -> None:
    """Verify every scenario on each release from 0.18.1 to the pinned one; fail where a scenario contradicts its 'since'."""
    session.install("--no-deps", "-e", ".")
    session.install("jinja2", "ruamel.yaml", "jsonschema", "pymdown-extensions")
    out = ROOT / "build" / "matrix"
    reports = []
    for release in [*EARLIER_RELEASES, _pinned_toolnexus()]:
        session.install(f"toolnexus=={release}")
        report = out / f"{release}.json"
        report.unlink(missing_ok=True)  # a crash must leave no report behind, so `matrix` fails loudly
        # Exit 1 with a report means "some scenario failed on this release": the matrix records it.
        session.run("python", "-m", "verified_docs", "verify", "--report", str(report),
                    "--ledger", str(out / f"{release}-ledger.json"), *session.posargs, success_codes=[0, 1])
        reports.append(str(report))
    session.run("python", "-m", "verified_docs", "matrix", *reports)


@nox.session(default=False)
def bench(session: nox.Session) -> None:
    """Print benchmark figures side by side from one run (medians, min, max) against the speed targets."""
    session.install("-e", ".[docs]")
    session.run("python", "-m", "verified_docs.bench", env=QUIET_MKDOCS)


@nox.session(default=False)
def mutation(session: nox.Session) -> None:
    """Mutation testing of the examples: prints the score per scenario and the survivors; fails below 90%."""
    session.install("-e", ".")
    session.run("python", "-m", "verified_docs", "mutate", *session.posargs)
