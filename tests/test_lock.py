"""uv.lock: every install reads it, so it must match pyproject.toml; a pin edited without
refreshing the lock is one line naming its pyproject.toml line (what `nox -s docs` and
`nox -s tests` stop with before installing anything)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from verified_docs.tools.lockfile import lock_problems

UV = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")


def uv_check(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [UV, "lock", "--check", "--offline", "--directory", str(root)], capture_output=True, text=True, timeout=120
    )


def copy_project(tmp_path: Path, edit: tuple[str, str] | None = None) -> Path:
    for name in ("pyproject.toml", "uv.lock"):
        shutil.copy(ROOT / name, tmp_path / name)
    if edit:
        text = (tmp_path / "pyproject.toml").read_text(encoding="utf-8")
        assert edit[0] in text
        (tmp_path / "pyproject.toml").write_text(text.replace(edit[0], edit[1], 1), encoding="utf-8")
    return tmp_path


def pin_line(text: str, pin: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if f'"{pin}"' in line)


def test_the_lock_matches_pyproject() -> None:
    problems = lock_problems(ROOT)
    if problems:
        pytest.fail("\n".join(str(p) for p in problems), pytrace=False)
    done = uv_check(ROOT)
    if done.returncode != 0:
        pytest.fail(
            f"uv.lock: `uv lock --check` says it is out of date for pyproject.toml ({done.stderr.strip()}); "
            "refresh the lock: nox -s lock",
            pytrace=False,
        )


def test_an_edited_pin_is_one_line_at_its_pyproject_line(tmp_path: Path) -> None:
    root = copy_project(tmp_path, ('"toolnexus==0.21.0"', '"toolnexus==0.20.0"'))
    line = pin_line((root / "pyproject.toml").read_text(encoding="utf-8"), "toolnexus==0.20.0")
    assert [str(p) for p in lock_problems(root)] == [
        f"{root / 'pyproject.toml'}:{line}: toolnexus==0.20.0 is not in uv.lock (it was made from "
        "toolnexus==0.21.0); refresh the lock: nox -s lock"
    ]
    assert uv_check(root).returncode == 1  # uv agrees that the lock is stale


def test_a_new_requirement_and_a_dropped_one_are_named(tmp_path: Path) -> None:
    root = copy_project(tmp_path, ('    "zizmor>=1.14",\n', '    "rich>=13",\n'))
    line = pin_line((root / "pyproject.toml").read_text(encoding="utf-8"), "rich>=13")
    assert [str(p) for p in lock_problems(root)] == [
        f"{root / 'pyproject.toml'}:{line}: rich>=13 is not in uv.lock (it has no such requirement); "
        "refresh the lock: nox -s lock",
        f"{root / 'pyproject.toml'}: uv.lock still locks zizmor>=1.14, which this file no longer asks for; "
        "refresh the lock: nox -s lock",
    ]


def test_a_missing_lock_is_named(tmp_path: Path) -> None:
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    assert [str(p) for p in lock_problems(tmp_path)] == [
        f"{tmp_path / 'uv.lock'}: missing; every install reads it (refresh the lock: nox -s lock)"
    ]


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
