"""uv.lock: every install reads it, so it must match pyproject.toml; with a pin edited and the
lock not refreshed, `nox -s docs` (like every session) stops before installing anything, with
one line giving uv's reason and the fix, `nox -s lock`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

UV = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")


def uv_check(root: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [UV, "lock", "--check", "--offline", "--directory", str(root)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def copy_project(tmp_path: Path, edit: tuple[str, str]) -> Path:
    """What ``nox -s docs`` reads before it installs: the noxfile, the package it loads, the
    project's pyproject.toml (with ``edit`` made) and uv.lock."""
    for name in ("noxfile.py", "pyproject.toml", "uv.lock"):
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "verified_docs", tmp_path / "verified_docs", ignore=shutil.ignore_patterns("__pycache__"))
    text = (tmp_path / "pyproject.toml").read_text(encoding="utf-8")
    assert edit[0] in text
    (tmp_path / "pyproject.toml").write_text(text.replace(edit[0], edit[1], 1), encoding="utf-8")
    return tmp_path


def test_the_lock_matches_pyproject() -> None:
    done = uv_check(ROOT)
    if done.returncode != 0:
        pytest.fail(
            f"uv.lock: `uv lock --check` says it is out of date for pyproject.toml ({done.stderr.strip()}); "
            "refresh the lock: nox -s lock",
            pytrace=False,
        )


def test_an_edited_pin_stops_nox_before_any_install_with_uvs_reason_and_the_fix(tmp_path: Path) -> None:
    nox = shutil.which("nox")
    assert nox, "nox is not on PATH (`nox -s tests` puts it there)"
    root = copy_project(tmp_path, ('"toolnexus==0.21.0"', '"toolnexus==0.20.0"'))
    env = {**os.environ, "UV_OFFLINE": "1"}  # uv's answer without the network, here and below
    said = [
        line.removeprefix("error: ") for line in uv_check(root, env).stderr.splitlines() if line.startswith("error: ")
    ]
    assert said, "uv lock --check found nothing wrong with the edited pin"
    done = subprocess.run(
        [nox, "-s", "docs", "--no-color"], cwd=root, capture_output=True, text=True, timeout=300, env=env
    )
    assert done.returncode != 0, done.stdout + done.stderr
    out = done.stdout + done.stderr
    line = (
        f"nox > Session docs aborted: uv.lock does not match pyproject.toml (uv lock --check: {said[0]}); "
        "refresh it: nox -s lock"
    )
    ends = [x for x in out.splitlines() if x.startswith("nox > Session")]
    # nox adds " (took N seconds)" when the session was slow
    assert len(ends) == 1 and (ends[0] == line + "." or ends[0].startswith(line + " (took ")), out
    assert "uv sync" not in out, out
    assert (root / ".nox" / "docs" / "pyvenv.cfg").is_file(), "nox never reached the session"
    installed = sorted(p.name for p in (root / ".nox" / "docs").glob("lib/python*/site-packages/*.dist-info"))
    assert installed == [], installed
    assert not (root / ".nox" / "docs" / ".verified-docs-installed").exists()


def test_the_lock_has_a_hash_for_every_file() -> None:
    import tomllib

    lock = tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))
    unhashed = [
        f"{p['name']} {p.get('version')}: {f.get('url')}"
        for p in lock["package"]
        for f in [*p.get("wheels", []), *([p["sdist"]] if "sdist" in p else [])]
        if not f.get("hash")
    ]
    assert unhashed == []
    assert sum(len(p.get("wheels", [])) for p in lock["package"]) > 50
