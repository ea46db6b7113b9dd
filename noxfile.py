"""Task runner: `nox -s docs` builds the verified site, `nox -s tests` runs the test suite."""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

import nox

nox.options.default_venv_backend = "uv|virtualenv"
nox.options.sessions = ["docs", "tests"]
nox.options.error_on_missing_interpreters = True
# Reuse session environments between runs: a rebuild with nothing changed must cost about a
# bare `mkdocs build`, not a fresh install. Each session still runs its install step, which
# updates the environment when pyproject.toml changes (a new toolnexus pin, say).
nox.options.reuse_venv = "yes"

ROOT = Path(__file__).parent
QUIET_MKDOCS = {"NO_MKDOCS_2_WARNING": "1"}
# The published releases the matrix measures, oldest first; the pinned one (read from
# pyproject.toml, the only place it is written) is appended. Add a release here when it ships.
EARLIER_RELEASES = ["0.18.1", "0.19.0", "0.20.0"]


def _install(session: nox.Session, *specs: str) -> None:
    """``session.install(*specs)``, skipped when this reused environment already got exactly
    these specs for the current pyproject.toml. Ours because nox re-runs every install on
    reuse, and uv's editable re-install of this project alone costs ~1.3 s, most of a no-op
    `nox -s docs`; nox's ``--no-install`` would also skip the install after a pin change."""
    stamp = Path(session.virtualenv.location) / ".verified-docs-installed"
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + repr(specs).encode()).hexdigest()
    if stamp.is_file() and stamp.read_text(encoding="utf-8") == wanted:
        session.log(f"environment already has {' '.join(specs)} for this pyproject.toml")
        return
    # Byte-compiled at install: this machine (like many CI images) sets PYTHONDONTWRITEBYTECODE,
    # so otherwise every fresh interpreter (an MCP server a snippet starts, say) compiles
    # toolnexus and mcp from source again, about 0.5 s each time.
    session.install(*specs, env={"UV_COMPILE_BYTECODE": "1"})
    stamp.write_text(wanted, encoding="utf-8")


def _pinned_toolnexus() -> str:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    match = re.search(r'"toolnexus==([0-9.]+)"', text)
    if match is None:
        raise RuntimeError("pyproject.toml: no toolnexus==X.Y.Z pin found")
    return match.group(1)


@nox.session
def docs(session: nox.Session) -> None:
    """Verify every example, run the docs' Python fences, build strictly, guard the result, then publish to site/.

    Unchanged scenarios and fences are answered from build/cache; `nox -s docs -- --force` runs all."""
    _install(session, "-e", ".[docs]")
    session.run("python", "-m", "verified_docs", "build", *session.posargs, env=QUIET_MKDOCS)


@nox.session
def tests(session: nox.Session) -> None:
    """Unit tests of the machinery, every example, the strict build and the guard (args go to pytest)."""
    _install(session, "-e", ".[test]")
    session.run("python", "-m", "pytest", *session.posargs, env=QUIET_MKDOCS)


@nox.session(default=False)
def serve(session: nox.Session) -> None:
    """Verify every example, then preview the site at http://127.0.0.1:8000 (re-run to re-verify)."""
    _install(session, "-e", ".[docs]")
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
    _install(session, "-e", ".[docs]", "nox", "uv")  # it times `nox -s docs` itself
    session.run("python", "-m", "verified_docs.bench", env=QUIET_MKDOCS)


@nox.session(default=False)
def mutation(session: nox.Session) -> None:
    """Mutation testing of the examples: prints the score per scenario and the survivors; fails below 90%."""
    session.install("-e", ".")
    session.run("python", "-m", "verified_docs", "mutate", *session.posargs)
