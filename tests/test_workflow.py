""".github/workflows/docs.yml passes actionlint and zizmor (both offline), pins every action to
a full commit SHA with its release in a comment, and gives each job its own permissions; a
workflow that breaks those rules fails the same checks."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from ruamel.yaml import YAML

from conftest import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "docs.yml"
BIN = str(Path(sys.executable).parent)
USES = re.compile(r"^\s*(?:-\s+)?uses:\s*(\S+)(.*)$")


def tool(name: str) -> str:
    found = shutil.which(name, path=BIN) or shutil.which(name)
    assert found, f"{name} is not installed (nox -s tests installs it into {BIN})"
    return found


def actionlint(path: Path) -> subprocess.CompletedProcess[str]:
    # shellcheck checks the run: scripts where it is installed (GitHub's runners have it).
    return subprocess.run(
        [tool("actionlint"), "-no-color", "-oneline", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=path.parent,
    )


def zizmor(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [tool("zizmor"), "--offline", "--no-progress", "--format", "plain", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_actionlint_passes() -> None:
    done = actionlint(WORKFLOW)
    assert done.returncode == 0, done.stdout + done.stderr


def test_zizmor_passes_offline() -> None:
    done = zizmor(WORKFLOW)
    assert done.returncode == 0, done.stdout + done.stderr


BROKEN = """name: broken
on: [pull_request]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: echo "${{ github.event.pull_request.title }}"
      - run: echo ${{ matrix.nothing }}
"""


def test_a_broken_workflow_fails_both(tmp_path: Path) -> None:
    path = tmp_path / ".github" / "workflows" / "broken.yml"
    path.parent.mkdir(parents=True)
    path.write_text(BROKEN)
    lint = actionlint(path)
    assert lint.returncode == 1
    assert 'property "nothing" is not defined in object type' in lint.stdout
    audit = zizmor(path)
    assert audit.returncode != 0
    for finding in ("unpinned-uses", "template-injection", "artipacked", "excessive-permissions"):
        assert finding in audit.stdout, audit.stdout


def test_every_action_is_pinned_to_a_commit_with_its_release_named() -> None:
    uses = [m for line in WORKFLOW.read_text().splitlines() if (m := USES.match(line))]
    assert len(uses) >= 6
    bad = [
        m.group(0).strip()
        for m in uses
        if not re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", m.group(1))
        or not re.fullmatch(r"\s*# v\d+\.\d+\.\d+", m.group(2))
    ]
    assert bad == []


def test_every_job_states_its_permissions_and_the_workflow_grants_none() -> None:
    workflow = YAML(typ="safe").load(WORKFLOW.read_text())
    assert workflow["permissions"] == {}
    jobs = workflow["jobs"]
    assert {name: "permissions" in job for name, job in jobs.items()} == {name: True for name in jobs}
    writers = {name: sorted(k for k, v in job["permissions"].items() if v == "write") for name, job in jobs.items()}
    assert writers == {"docs": [], "tests": [], "deploy": ["id-token", "pages"], "new-release-alarm": []}


def _steps(job: dict) -> list[dict]:
    return [s for s in job.get("steps", []) if "run" in s]


def test_a_pull_request_gets_the_docs_verdict_in_its_own_job_beside_the_tests() -> None:
    jobs = YAML(typ="safe").load(WORKFLOW.read_text())["jobs"]
    runs = {name: [s["run"].strip() for s in _steps(job)] for name, job in jobs.items()}
    assert "nox -s docs" in runs["docs"] and not any("nox -s tests" in r for r in runs["docs"])
    assert "nox -s tests -- $PYTEST_ARGS" in runs["tests"] and "nox -s docs" not in runs["tests"]
    # Neither waits for the other; only publishing waits for both.
    assert "needs" not in jobs["docs"] and "needs" not in jobs["tests"]
    assert sorted(jobs["deploy"]["needs"]) == ["docs", "tests"]


def halves() -> dict[str, list[str]]:
    """The tests job's matrix: each half's pytest arguments, by its name."""
    jobs = YAML(typ="safe").load(WORKFLOW.read_text())["jobs"]
    tests = jobs["tests"]
    step = next(s for s in _steps(tests) if "nox -s tests" in s["run"])
    assert step["env"] == {"PYTEST_ARGS": "${{ matrix.pytest }}"}, step
    assert tests["strategy"]["fail-fast"] is False  # a failing half does not cancel the other
    return {entry["part"]: entry["pytest"].split() for entry in tests["strategy"]["matrix"]["include"]}


def collected(*args: str) -> subprocess.Popen[str]:
    """``pytest --collect-only -q`` with ``args``, started (three run side by side)."""
    return subprocess.Popen(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def node_ids(started: subprocess.Popen[str]) -> list[str]:
    out, _ = started.communicate(timeout=300)
    assert started.returncode == 0, out
    return [line for line in out.splitlines() if "::" in line or line.endswith(".md")]


def test_the_two_halves_of_the_tests_job_run_exactly_the_whole_suite_once() -> None:
    # Run side by side in CI, the halves must together be `nox -s tests`: no test in neither, none in both.
    parts = halves()
    assert sorted(parts) == ["browser", "machinery"]
    whole, *split = [collected()] + [collected(*args) for args in parts.values()]
    everything = node_ids(whole)
    ids = {name: node_ids(p) for name, p in zip(parts, split, strict=True)}
    assert len(everything) > 800
    assert all(i.startswith("tests/browser/") for i in ids["browser"]) and len(ids["browser"]) > 300
    assert not any(i.startswith("tests/browser/") for i in ids["machinery"])
    assert sorted(ids["browser"] + ids["machinery"]) == sorted(everything)
