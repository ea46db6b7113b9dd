"""Only `nox -s docs` writes site/: a plain `mkdocs build`, `mkdocs serve` or `zensical build`
verifies nothing, so it writes elsewhere (mkdocs.yml's site_dir), and MkDocs says so.

Each runs in a project of one page, with the real mkdocs.yml (its nav cut down to that page,
its hook pointed at this checkout) and an empty ledger.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT
from verified_docs import ledger as ledger_mod

HOOK = "verified_docs/site/mkdocs_hook.py"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n\nNo example here.\n", encoding="utf-8")
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = config[: config.index("nav:")] + "nav:\n  - Home: index.md\n\n" + config[config.index("theme:") :]
    assert HOOK in config
    (tmp_path / "mkdocs.yml").write_text(config.replace(HOOK, str(ROOT / HOOK)), encoding="utf-8")
    ledger_mod.save(ledger_mod.build([], tmp_path), tmp_path / ledger_mod.DEFAULT_LEDGER)
    return tmp_path


def _env() -> dict[str, str]:
    return {**os.environ, "NO_MKDOCS_2_WARNING": "1", "VERIFIED_DOCS_EDIT_URI": "https://git.example.org/e/"}


def _run(project: Path, *command: str) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=project, env=_env(), capture_output=True, text=True, timeout=300)


def test_a_plain_mkdocs_build_writes_elsewhere_and_says_nothing_was_verified(project: Path) -> None:
    done = _run(project, sys.executable, "-m", "mkdocs", "build")
    assert done.returncode == 0, done.stdout + done.stderr
    assert not (project / "site").exists()
    assert (project / "build/unverified-site/index.html").is_file()
    assert "verified_docs: nothing is verified here" in done.stderr
    assert "never site/; `nox -s docs` verifies, then publishes site/" in done.stderr


def test_a_plain_zensical_build_writes_elsewhere(project: Path) -> None:
    zensical = Path(sys.executable).parent / "zensical"
    done = _run(project, str(zensical), "build")
    assert done.returncode == 0, done.stdout + done.stderr
    assert not (project / "site").exists()
    assert (project / "build/unverified-site/index.html").is_file()


def test_mkdocs_serve_writes_no_site(project: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--no-livereload", "-a", f"127.0.0.1:{port}"],
        cwd=project,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        deadline, seen = time.monotonic() + 120, []
        assert proc.stdout is not None
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            seen.append(line)
            if "Serving on" in line or not line:
                break
        assert any("Serving on" in line for line in seen), "".join(seen)
        assert any("verified_docs: nothing is verified here" in line for line in seen), "".join(seen)
        assert not (project / "site").exists() and not (project / "build/unverified-site").exists()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
