""".ci/ensure-chromium: `nox -s tests` and .ci/run install the browser tests' Chromium, or stop
with one line saying why. apt-get is replaced by a script on PATH (the system is left alone)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from conftest import ROOT

SCRIPT = ROOT / ".ci" / "ensure-chromium"


def run(chromium: Path, path: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [shutil.which("bash"), str(SCRIPT), str(chromium)],
        env={"PATH": path, "HOME": str(chromium.parent)},
        capture_output=True,
        text=True,
        timeout=60,
    )


def fake_apt(tmp_path: Path, body: str) -> Path:
    """A folder holding an ``apt-get`` that logs its arguments to ``apt.log`` and then runs
    ``body``, and a ``sudo`` that runs its command as is (used when the suite is not root)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, text in (
        ("apt-get", f'echo "$DEBIAN_FRONTEND $*" >> "{tmp_path}/apt.log"\n{body}'),
        ("sudo", '[ "$1" = -n ] && shift\nexec "$@"'),
    ):
        (bin_dir / name).write_text(f"#!/bin/sh\n{text}\n")
        (bin_dir / name).chmod(0o755)
    return bin_dir


def test_present_chromium_is_left_alone(tmp_path: Path) -> None:
    chromium = tmp_path / "chromium"
    chromium.write_text("#!/bin/sh\n")
    chromium.chmod(0o755)
    bin_dir = fake_apt(tmp_path, "exit 1")
    done = run(chromium, f"{bin_dir}:{os.environ['PATH']}")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert not (tmp_path / "apt.log").exists()


def test_missing_chromium_is_installed_with_apt_get(tmp_path: Path) -> None:
    chromium = tmp_path / "chromium"
    bin_dir = fake_apt(
        tmp_path,
        f'case "$1" in install) printf "#!/bin/sh\\necho Chromium 1.2.3\\n" > "{chromium}"; '
        f'chmod +x "{chromium}";; esac',
    )
    done = run(chromium, f"{bin_dir}:{os.environ['PATH']}")
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout == "installing chromium from Debian's packages (for the browser tests)\ninstalled Chromium 1.2.3\n"
    )
    assert (tmp_path / "apt.log").read_text() == (
        "noninteractive update -qq\nnoninteractive install -y -qq --no-install-recommends chromium\n"
    )


def test_a_failed_install_is_one_line_with_apts_reason(tmp_path: Path) -> None:
    chromium = tmp_path / "chromium"
    bin_dir = fake_apt(
        tmp_path,
        'case "$1" in install) echo "Reading package lists..."; '
        'echo "E: Unable to locate package chromium"; echo; exit 100;; esac',
    )
    done = run(chromium, f"{bin_dir}:{os.environ['PATH']}")
    assert done.returncode == 1
    assert done.stderr == (
        f"ensure-chromium: error: apt-get install failed: E: Unable to locate package chromium "
        f"(the browser tests need {chromium})\n"
    )


def test_no_apt_get_is_one_line(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "env").symlink_to(shutil.which("env"))
    chromium = tmp_path / "chromium"
    done = run(chromium, str(bin_dir))
    assert done.returncode == 1
    assert done.stderr == (
        f"ensure-chromium: error: {chromium} not found and there is no apt-get to install it; "
        f"install Chromium yourself (the browser tests need {chromium})\n"
    )
