"""``nox -s soak``: are the build's verdicts and its site the same run after run, alone and beside
another checkout doing the same on the same machine?

Two clones of the committed HEAD (``build/soak/a`` and ``build/soak/b``; uncommitted changes
are not in them) each get their environments with one ``nox -s docs`` first (not counted). Then
``nox -s docs -- --force`` runs N times in clone a alone, and N times in both clones at once.
Every run builds the same commit, so every failed run is a false failure, and every site should
hash like the first. With ``--tests`` the process-sensitive tests (kills, leftovers, the network
namespace) also run N times in both clones at once (``--all-tests``: the whole suite).
Each run's log is kept in ``build/soak/logs/``.

Standard library only: nox runs this file with its own interpreter (``nox`` on the PATH).
Usage: ``python verified_docs/tools/soak.py ROOT [N] [--tests | --all-tests]``.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

PROCESS_SENSITIVE = [
    "tests/test_verify.py::test_hanging_program_is_killed_with_its_children_and_the_rest_reported",
    "tests/test_forkserver.py",
    "tests/test_publish.py",
    "tests/test_leftovers.py",
    "tests/test_offline.py",
]


@dataclass(frozen=True)
class Outcome:
    """One nox run: its clone, exit code, wall seconds, log file and site hash (docs only)."""

    clone: str
    code: int
    seconds: float
    log: Path
    site: str | None


def site_hash(site: Path) -> str | None:
    """Hex SHA-256 over every file of ``site`` (relative path and bytes, in order), or None."""
    if not (site / "index.html").is_file():
        return None
    h = hashlib.sha256()
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        h.update(path.relative_to(site).as_posix().encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def clone(root: Path, folder: Path) -> None:
    """``folder`` as a clone of ``root``'s HEAD (made, or reset to it)."""
    head = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    if not (folder / ".git").is_dir():
        folder.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(root), str(folder)], check=True)
    subprocess.run(["git", "-C", str(folder), "fetch", "-q", str(root), head], check=True)
    subprocess.run(["git", "-C", str(folder), "reset", "-q", "--hard", head], check=True)


def start(folder: Path, args: list[str], log: Path) -> tuple[subprocess.Popen, float, IO[str]]:
    log.parent.mkdir(parents=True, exist_ok=True)
    out = open(log, "w", encoding="utf-8")
    return subprocess.Popen(["nox", *args], cwd=folder, stdout=out, stderr=subprocess.STDOUT), time.monotonic(), out


def run_at_once(folders: dict[str, Path], args: list[str], logs: Path, label: str, docs: bool) -> list[Outcome]:
    """Run ``nox *args`` in every folder at the same time; their outcomes."""
    started = {name: start(folder, args, logs / f"{label}-{name}.log") for name, folder in folders.items()}
    outcomes = []
    for name, (proc, t0, out) in started.items():
        code = proc.wait()
        out.close()
        outcomes.append(
            Outcome(
                name,
                code,
                time.monotonic() - t0,
                logs / f"{label}-{name}.log",
                site_hash(folders[name] / "site") if docs else None,
            )
        )
    # One line per run as it ends, so a long soak shows its progress (and a failure) at once.
    for o in outcomes:
        print(f"soak: {label} clone {o.clone}: exit {o.code} in {o.seconds:.0f} s", flush=True)
    return outcomes


def summary(what: str, outcomes: list[Outcome], reference: str | None) -> str:
    """One line: green runs, false failures and (docs) sites identical to ``reference``."""
    green = sum(o.code == 0 for o in outcomes)
    line = f"soak: {what}: {green} of {len(outcomes)} green, {len(outcomes) - green} false failure(s)"
    if reference is not None:
        same = sum(o.site == reference for o in outcomes if o.code == 0)
        line += f", {same} of {green} sites identical to the first"
    times = sorted(o.seconds for o in outcomes)
    line += f" (wall {times[0]:.0f} to {times[-1]:.0f} s)"
    failed = [str(o.log) for o in outcomes if o.code != 0]
    return line + (f"; logs of the failures: {', '.join(failed)}" if failed else "")


def main(argv: list[str]) -> int:
    root = Path(argv[0]).resolve()
    rest = argv[1:]
    n = int(next((a for a in rest if a.isdigit()), "5"))
    tests = "--all-tests" if "--all-tests" in rest else "--tests" if "--tests" in rest else None
    base = root / "build" / "soak"
    logs = base / "logs"
    folders = {"a": base / "a", "b": base / "b"}
    for folder in folders.values():
        clone(root, folder)
    print(f"soak: {n} run(s) each, in clones of {root} HEAD under {base}", flush=True)
    setup = run_at_once(folders, ["-s", "docs"], logs, "setup", docs=True)
    if any(o.code for o in setup):
        print(summary("setup (environments, first build)", setup, None), flush=True)
        print("soak: this commit does not build; nothing to soak", file=sys.stderr)
        return 1
    reference = setup[0].site
    docs = ["-s", "docs", "--", "--force"]
    alone = [o for i in range(n) for o in run_at_once({"a": folders["a"]}, docs, logs, f"alone-{i + 1}", True)]
    print(summary("nox -s docs alone", alone, reference), flush=True)
    beside = [o for i in range(n) for o in run_at_once(folders, docs, logs, f"beside-{i + 1}", True)]
    print(summary("nox -s docs in two clones at once", beside, reference), flush=True)
    everything = alone + beside
    if tests:
        selection = [] if tests == "--all-tests" else PROCESS_SENSITIVE
        paired = [
            o
            for i in range(n)
            for o in run_at_once(folders, ["-s", "tests", "--", *selection], logs, f"tests-{i + 1}", False)
        ]
        what = "nox -s tests (the whole suite)" if not selection else "nox -s tests (the process-sensitive tests)"
        print(summary(f"{what} in two clones at once", paired, None), flush=True)
        everything += paired
    return 0 if all(o.code == 0 for o in everything) and all(o.site == reference for o in alone + beside) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
