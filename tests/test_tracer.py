"""The tracer (``verified_docs/run/tracer/``) is a set of top-level modules of every snippet
process: they load, trace and keep the process offline where the ``verified_docs`` package
cannot be imported at all."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from verified_docs.run.languages import TRACER_DIR

PROBE = """
import sys
sys.path.insert(0, sys.argv[1])
import sitecustomize  # -S: not loaded at start-up, so load it by hand, as start-up would
import socket, time
time.sleep(0.001)
try:
    socket.getaddrinfo("example.com", 443)
except ConnectionRefusedError as e:
    print(e)
print(sorted(m for m in sys.modules if m == "verified_docs" or m.startswith("verified_docs.")))
"""


def test_the_tracer_works_without_the_package(tmp_path: Path) -> None:
    trace = tmp_path / "trace.jsonl"
    # -S leaves site-packages (and with it the installed verified_docs) off sys.path; the
    # working directory is not the project's either.
    done = subprocess.run(
        [sys.executable, "-S", "-c", PROBE, str(TRACER_DIR)],
        cwd=tmp_path,
        env={"VERIFIED_DOCS_TRACE": str(trace)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    refused, loaded = done.stdout.splitlines()
    assert refused.startswith("verified_docs: offline: this snippet tried to reach 'example.com'")
    assert loaded == "[]"
    events = [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()]
    by_event = {e["event"]: e for e in events}
    assert sorted(by_event) == ["imports", "slept"] and len(events) == 2  # both written at exit
    assert (by_event["slept"]["seconds"], by_event["slept"]["calls"]) == (0.001, 1)


def test_at_exit_the_trace_names_the_toolnexus_objects_the_programs_files_bound(tmp_path: Path) -> None:
    (tmp_path / "helper.py").write_text("from toolnexus import Request\n", encoding="utf-8")
    program = tmp_path / "program.py"
    program.write_text(
        "import helper\nimport toolnexus\nfrom toolnexus import Answer as A, pending\n"
        "answer = A(id='x', ok=True)\n\ndef tool():\n    from toolnexus import pending_of\n",
        encoding="utf-8",
    )
    trace = tmp_path / "trace.jsonl"
    done = subprocess.run(
        [sys.executable, str(program)],
        cwd=tmp_path,
        env={"VERIFIED_DOCS_TRACE": str(trace), "PYTHONPATH": str(TRACER_DIR)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    (names,) = [e for e in map(json.loads, trace.read_text(encoding="utf-8").splitlines()) if e["event"] == "names"]
    # By qualified name where it is defined; an instance (answer) and a function's local import are not there.
    assert names["files"] == {
        str(program.resolve()): {
            "A": "toolnexus.types.Answer",
            "pending": "toolnexus.types.pending",
            "toolnexus": "toolnexus",
        },
        str((tmp_path / "helper.py").resolve()): {"Request": "toolnexus.types.Request"},
    }
