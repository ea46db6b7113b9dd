"""Task runner: `nox -s docs` builds the verified site, `nox -s tests` runs the test suite."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import nox

nox.options.default_venv_backend = "uv|virtualenv"
nox.options.sessions = ["docs", "tests"]
nox.options.error_on_missing_interpreters = True

ROOT = Path(__file__).parent
QUIET_MKDOCS = {"NO_MKDOCS_2_WARNING": "1"}


@nox.session
def docs(session: nox.Session) -> None:
    """Verify every example, then `mkdocs build --strict` into site/ (args go to verify, e.g. --languages python)."""
    session.install("-e", ".[docs]")
    session.run("python", "-m", "verified_docs", "verify", *session.posargs)
    partial = ROOT / "build" / "site.partial"
    shutil.rmtree(partial, ignore_errors=True)
    session.run("python", "-m", "mkdocs", "build", "--strict", "-d", str(partial), env=QUIET_MKDOCS)
    _swap_in(partial, ROOT / "site")
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


def _swap_in(new: Path, target: Path) -> None:
    # A failed build never reaches here, so site/ only ever holds a complete build: the new
    # tree is renamed into place, and the old one removed only after that.
    old = target.with_name(target.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        os.replace(target, old)
    os.replace(new, target)
    shutil.rmtree(old, ignore_errors=True)
