"""Task runner: `nox -s docs` builds the verified site, `nox -s tests` runs the test suite."""
from __future__ import annotations

import hashlib
import re
import subprocess
import sys
import time
from pathlib import Path

import nox
from nox.command import CommandFailed

nox.options.default_venv_backend = "uv|virtualenv"
nox.options.sessions = ["docs", "tests"]
nox.options.error_on_missing_interpreters = True
# Reuse session environments between runs: a rebuild with nothing changed must cost about a
# bare `mkdocs build`, not a fresh install. Each session still runs its install step, which
# updates the environment when pyproject.toml changes (a new toolnexus pin, say).
nox.options.reuse_venv = "yes"

ROOT = Path(__file__).parent
QUIET_MKDOCS = {"NO_MKDOCS_2_WARNING": "1"}
# The releases the matrix measures are listed once, in rules/releases.txt; the pin stays in
# pyproject.toml. Releases before 0.12.0 declare `mcp>=1.0.0` with no upper bound, and mcp 2
# no longer has what they import, so every release is installed with the bound that 0.12.0 and
# later declare themselves: the matrix measures toolnexus, not a dependency that did not exist
# when the release shipped. Each report records the versions it was measured with.
MATRIX_CONSTRAINTS = ["mcp>=1.0.0,<2.0.0"]


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


@nox.session
def docs(session: nox.Session) -> None:
    """Verify every example, run the docs' Python fences, render Markdown, build strictly, guard the result, then publish to site/.

    Unchanged scenarios and fences are answered from build/cache; `nox -s docs -- --force` runs all.
    `nox -s docs -- --generator zensical` builds with Zensical instead of MkDocs (installing it first)."""
    _install(session, "-e", ".[docs,zensical]" if _wants_zensical(session.posargs) else ".[docs]")
    session.run("python", "-m", "verified_docs", "build", *session.posargs, env=QUIET_MKDOCS)


def _wants_zensical(args: list[str]) -> bool:
    """Whether the build arguments pick Zensical (``--generator zensical`` or ``--generator=zensical``)."""
    return "--generator=zensical" in args or any(a == "--generator" and b == "zensical" for a, b in zip(args, args[1:]))


def _ensure_chromium(session: nox.Session) -> None:
    """Install the browser tests' Chromium (Debian's, /usr/bin/chromium) when it is missing, with
    the script .ci/run uses too; where that cannot be done, stop now with its one-line reason
    rather than fail every browser test."""
    done = subprocess.run(["bash", str(ROOT / ".ci" / "ensure-chromium")], stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        session.error((done.stderr.strip().splitlines() or ["ensure-chromium failed"])[-1])


@nox.session
def tests(session: nox.Session) -> None:
    """Unit tests of the machinery, every example, the strict build and the guard (args go to pytest).
    Installs Chromium for the browser tests first when it is missing (apt-get), or stops saying why."""
    _ensure_chromium(session)
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
    """Verify every scenario on each release in rules/releases.txt and the pinned one (only releases whose inputs changed; `-- --force` runs all); fail where a 'since' is wrong."""
    start = time.monotonic()
    session.install("--no-deps", "-e", ".")
    session.install("jinja2", "ruamel.yaml", "jsonschema", "pymdown-extensions", "coverage>=7.4")
    out = ROOT / "build" / "matrix"
    plan = session.run("python", "-m", "verified_docs", "matrix-plan", "--reports", str(out), silent=True)
    planned = [line.split() for line in plan.splitlines() if re.match(r"^[0-9.]+ (run|cached)", line)]
    if not planned:
        session.error(f"matrix-plan listed no releases:\n{plan}")
    _compare_with_pypi(session, [p[0] for p in planned])
    force = "--force" in session.posargs
    reports, timings = [], []
    for release, state, *rest in planned:
        report = out / f"{release}.json"
        reports.append(str(report))
        if state == "cached" and not force:
            session.log(f"toolnexus {release}: inputs unchanged since it was measured; report kept "
                        f"(verification took {rest[0]} s then)")
            timings.append(f"{release} cached")
            continue
        t0 = time.monotonic()
        session.install(f"toolnexus=={release}", *MATRIX_CONSTRAINTS)
        report.unlink(missing_ok=True)  # a crash must leave no report behind, so `matrix` fails loudly
        # Exit 1 with a report means "some scenario failed on this release": the matrix records it.
        session.run("python", "-m", "verified_docs", "verify", "--report", str(report),
                    "--ledger", str(out / f"{release}-ledger.json"), *session.posargs, success_codes=[0, 1])
        took = time.monotonic() - t0
        session.log(f"toolnexus {release}: installed and verified in {took:.1f} s")
        timings.append(f"{release} {took:.1f} s")
    session.run("python", "-m", "verified_docs", "matrix", *reports)
    session.log(f"release matrix: {len(planned)} releases in {time.monotonic() - start:.1f} s "
                f"({'; '.join(timings)})")


def _compare_with_pypi(session: nox.Session, measured: list[str]) -> None:
    """Fail when PyPI serves a release between the first measured one and the pin that the
    matrix would skip. Uses nox's own pip (`pip index versions`); when that cannot answer
    (offline, no pip), say so and go on."""
    try:
        text = session.run(sys.executable, "-m", "pip", "index", "versions", "toolnexus",
                           external=True, silent=True, log=False)
    except CommandFailed:
        session.warn("could not ask PyPI which toolnexus releases exist; the release list was not compared")
        return
    found = re.search(r"Available versions:\s*(.+)", text or "")
    if found is None:
        session.warn(f"`pip index versions toolnexus` said something unexpected; list not compared:\n{text}")
        return
    key = lambda v: tuple(int(x) for x in v.split("."))  # noqa: E731
    served = [v.strip() for v in found.group(1).split(",") if re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", v.strip())]
    skipped = sorted((v for v in served if key(measured[0]) <= key(v) <= key(measured[-1]) and v not in measured), key=key)
    if skipped:
        session.error(f"PyPI serves toolnexus {', '.join(skipped)}, which rules/releases.txt does not list")


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
