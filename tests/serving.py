"""A small project to serve, and ``python -m verified_docs serve`` run on it in a process
group of its own (port 0), stopped with everything it started."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from conftest import ROOT, SNIPPETS

NAME = "suspension/approval-gate"
PROGRAM = Path("snippets") / NAME / "approval_gate.py"
PAGE = (
    "# Approval\n\nThe tool:\n\n"
    f'<!-- verified-example scenario="{NAME}" program="approval_gate" section="tool" output="no" -->\n'
)
OTHER = "# Other\n\nNo example on this page.\n"
START_S = 180.0  # the first cycle verifies and builds everything; the machine is shared


def make_project(root: Path) -> Path:
    """One scenario (a copy of approval-gate), a page showing it, a page without examples, the
    site's scripts and styles, and the real mkdocs.yml pointed at this checkout's hook."""
    shutil.copytree(SNIPPETS / NAME, root / "snippets" / NAME)
    (root / "docs").mkdir(parents=True)
    for assets in ("javascripts", "stylesheets"):  # the site's own scripts and styles
        shutil.copytree(ROOT / "docs" / assets, root / "docs" / assets)
    (root / "docs" / "index.md").write_text(PAGE, encoding="utf-8")
    (root / "docs" / "other.md").write_text(OTHER, encoding="utf-8")
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = config[: config.index("nav:")] + "nav:\n  - index.md\n  - other.md\n" + config[config.index("theme:") :]
    config = config.replace(
        "verified_docs/site/mkdocs_hook.py", str(ROOT / "verified_docs" / "site" / "mkdocs_hook.py")
    )
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    return root


@dataclass
class Served:
    """A running serve process: its base ``url``, and what it printed so far."""

    proc: subprocess.Popen
    url: str = ""
    out: list[str] = field(default_factory=list)
    err: list[str] = field(default_factory=list)

    def get(self, path: str, timeout: float = 60.0) -> tuple[int, str]:
        """Status and body of ``path`` (no leading '/'); an HTTP error status is returned, not raised."""
        try:
            with urllib.request.urlopen(self.url + path, timeout=timeout) as r:
                return r.status, r.read().decode("utf-8")
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode("utf-8")

    def state(self) -> dict:
        return json.loads(self.get(".verified-docs/state")[1])

    def next_epoch(self, after: int, timeout: float = START_S) -> dict:
        """The server's state once a cycle after epoch ``after`` finished, asked through the
        same long poll the pages' script uses. Raises AssertionError on timeout or exit."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"serve exited {self.proc.returncode}:\n{self.printed()}"
            if int(self.get(f".verified-docs/reload?epoch={after}", timeout=40)[1]) > after:
                return self.state()
        raise AssertionError(f"no cycle finished after epoch {after} in {timeout:.0f}s:\n{self.printed()}")

    def printed(self) -> str:
        return "".join(self.out) + "--- stderr:\n" + "".join(self.err)

    def printed_once(self, text: str, timeout: float = 30.0) -> str:
        """:meth:`printed`, once ``text`` is in it or after ``timeout`` seconds. A cycle's
        summary line comes after the epoch it publishes, and a thread of ours reads it from the
        pipe: a test that saw the epoch may look before the line is here (seen under xdist)."""
        deadline = time.monotonic() + timeout
        while text not in self.printed() and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.printed()


def _read(stream, into: list[str]) -> None:
    for line in stream:
        into.append(line)


@contextmanager
def serving(project: Path) -> Iterator[Served]:
    """``python -m verified_docs serve`` on ``project`` at 127.0.0.1:0, in a session of its own;
    on exit it gets SIGTERM, must stop by itself, and whatever is left of its process group
    (nothing, when it cleaned up) is killed."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "verified_docs", "serve", "--root", str(project), "-a", "127.0.0.1:0"],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    served = Served(proc)
    readers = [
        threading.Thread(target=_read, args=(proc.stdout, served.out), daemon=True),
        threading.Thread(target=_read, args=(proc.stderr, served.err), daemon=True),
    ]
    for t in readers:
        t.start()
    try:
        deadline = time.monotonic() + 60
        while not served.url:
            found = re.search(r"\[serve\] serving (http://127\.0\.0\.1:\d+/)", "".join(served.out))
            if found:
                served.url = found.group(1)
            elif proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"serve did not start:\n{served.printed()}")
            else:
                time.sleep(0.05)
        yield served
    finally:
        stop(proc)
        for t in readers:
            t.join(5)


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM to ``proc``, then SIGKILL to what is left of its process group (ours alone)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            pass
    with_group_gone(proc.pid)


def with_group_gone(pgid: int, wait_s: float = 10.0) -> bool:
    """Wait for process group ``pgid`` to empty, then SIGKILL what remains; True when it had emptied."""
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        return True
    return False
