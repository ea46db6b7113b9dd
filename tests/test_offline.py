"""Offline for real: verification runs in a network namespace with only loopback, so a snippet's
process that is not Python (curl here) cannot reach the network either, while the mock model
on 127.0.0.1 still answers. Each check runs the verifier in a child process: the namespace is
a process's, and the test process itself stays where it is."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, SAMPLES
from verified_docs.run.netns import warning


def verify(only: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "verified_docs",
            "verify",
            "--root",
            str(SAMPLES),
            "--only",
            only,
            "--ledger",
            str(tmp_path / "ledger.json"),
            "--force",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **env},
    )


def problems(stdout: str) -> list[str]:
    return [line.strip() for line in stdout.splitlines() if re.match(r"^     \S+:\d+: ", line)]


def test_curl_from_a_snippet_fails_saying_what_it_tried_to_reach_while_the_mock_answers(tmp_path: Path) -> None:
    done = verify("hostile/curl", tmp_path)
    assert done.returncode == 1
    assert done.stderr == ""  # contained: no warning
    # The only problem is curl's: model_requests (1) held and the golden output (the mock's
    # reply) matched, so the mock model was reachable on 127.0.0.1 from inside the namespace.
    # The snippet ran in another network namespace than this test's: an unreachable host alone
    # (a machine with no outside DNS gives the same curl error) would not prove containment.
    shown = re.findall(r"netns: (net:\[\d+\])", done.stdout)
    assert shown and shown[0] != os.readlink("/proc/self/ns/net"), done.stdout
    assert problems(done.stdout) == [
        "tests/samples/snippets/hostile/curl/main.py:17: exit code: expected 0, got 1; it tried to reach 'pypi.org', but only "
        "the mock model on 127.0.0.1 is reachable"
    ]
    assert "curl: (6) Could not resolve host: pypi.org" in done.stdout


def test_without_a_namespace_one_warning_line_says_what_is_not_contained(tmp_path: Path) -> None:
    done = verify("hostile/network", tmp_path, VERIFIED_DOCS_NETNS="off")
    assert done.stderr == warning("VERIFIED_DOCS_NETNS=off") + "\n"
    assert done.stderr == (
        "verified_docs: warning: snippets run without a network namespace (VERIFIED_DOCS_NETNS=off): "
        "only their Python processes are kept offline; a snippet's curl, git or npm could still "
        "reach the network\n"
    )
    # The Python-level block still holds for Python processes.
    assert problems(done.stdout) == [
        "tests/samples/snippets/hostile/network/main.py:3: exit code: expected 0, got 1; it tried to reach 'example.com', but only "
        "the mock model on 127.0.0.1 is reachable"
    ]


NS_PROBE = """
import os, sys
from verified_docs.run import netns
before = os.readlink('/proc/self/ns/net')
if sys.argv[1] == 'broken-loopback':
    def refused():
        raise PermissionError(1, 'Operation not permitted')
    netns._loopback_up = refused  # what a granted but restricted namespace does
print(netns.contain())
print(before == os.readlink('/proc/self/ns/net'))
"""


def test_a_namespace_that_cannot_be_used_leaves_the_process_where_it_was_with_the_warning() -> None:
    # The probe runs in a forked child: when a step fails there, this process never moved, so
    # it keeps the host's loopback (and the Python-level block) instead of an unusable one.
    done = subprocess.run(
        [sys.executable, "-c", NS_PROBE, "broken-loopback"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={k: v for k, v in os.environ.items() if k != "VERIFIED_DOCS_NETNS"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        warning("cannot bring loopback up in the namespace: [Errno 1] Operation not permitted"),
        "True",
    ]
    done = subprocess.run(
        [sys.executable, "-c", NS_PROBE, "as-is"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={k: v for k, v in os.environ.items() if k != "VERIFIED_DOCS_NETNS"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["None", "False"]  # contained: it moved into a namespace of its own
