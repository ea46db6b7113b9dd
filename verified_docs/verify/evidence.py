"""Check what a run must show, from what was observed. Each check returns problems, never raises.

Observed facts come from two places that the snippet does not control: the mock model's
recorded requests (what the model was shown) and the tracer's events (how often a tool ran,
what ``ctx.answer`` held, how often ``wait_for`` was called, how each run ended). A program
that prints the right words while the human's reply never reached the tool still fails here.
"""

from __future__ import annotations

import json
import re
import signal
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable

from verified_docs.errors import Location, Problem
from verified_docs.run.mock_model.provider_rules import is_balanced
from verified_docs.run.mock_model.server import RecordedRequest
from verified_docs.run.process import MAX_CAPTURE_BYTES
from verified_docs.scenario.records import Expect
from verified_docs.verify.normalise import normalise


@dataclass(frozen=True)
class Observation:
    """Everything one program run left behind. ``traced`` is False for a language whose
    toolnexus internals cannot be observed; then trace-based evidence is an error, not a pass."""

    exit_code: int
    timed_out: bool
    timeout_s: float
    stdout: str
    stderr: str
    requests: tuple[RecordedRequest, ...]
    trace: tuple[dict[str, Any], ...]
    traced: bool
    flooded: str | None = None
    not_utf8: str | None = None
    anomaly: str | None = None


def tool_results_shown(requests: tuple[RecordedRequest, ...]) -> list[str]:
    """Contents of the tool messages the model was shown, each once, in order of first sight."""
    seen: set[tuple[Any, str]] = set()
    shown: list[str] = []
    for r in requests:
        if not isinstance(r.body, dict):
            continue
        for m in r.body.get("messages") or []:
            if isinstance(m, dict) and m.get("role") == "tool":
                content = m.get("content")
                text = content if isinstance(content, str) else json.dumps(content)
                key = (m.get("tool_call_id"), text)
                if key not in seen:
                    seen.add(key)
                    shown.append(text)
    return shown


def sequence(trace: tuple[dict[str, Any], ...]) -> list[str]:
    """The trace as labels, in order: ``tool <name>``, ``wait_for``, ``stream pending``,
    ``run <status>``. Shows what happened before what (a pending event before wait_for)."""
    labels = []
    for e in trace:
        if e["event"] == "tool_execute":
            labels.append(f"tool {e['tool']}")
        elif e["event"] == "wait_for":
            labels.append("wait_for")
        elif e["event"] == "stream_pending":
            labels.append("stream pending")
        elif e["event"] == "run_end":
            labels.append(f"run {e['status']}")
    return labels


def _requests_raised(obs: Observation, expected: tuple[dict[str, Any], ...]) -> str:
    """Each Request a tool suspended with, in order, cut to the keys the scenario states
    (as JSON with generated ids normalised)."""
    keys = set().union(*(e.keys() for e in expected)) if expected else {"id", "kind", "prompt"}
    raised = [
        {k: v for k, v in e["pending"].items() if k in keys}
        for e in obs.trace
        if e["event"] == "tool_execute" and e.get("pending")
    ]
    return _as_json(raised)


def _tool_runs(obs: Observation, expected: dict[str, int]) -> dict[str, int]:
    """Executions per tool, listing a tool the scenario expects at zero as 0, not absent."""
    counts = Counter(e["tool"] for e in obs.trace if e["event"] == "tool_execute")
    return {**{name: 0 for name in expected}, **counts}


def _as_json(value: Any) -> str:
    """Canonical JSON with generated ids normalised: how ``tool_answers`` compare and print."""
    return normalise(json.dumps(value, sort_keys=True))


def _mismatch(where: Location, what: str, expected: Any, got: Any) -> Problem:
    return Problem(where, f"{what}: expected {expected}, got {got}")


def check_exit(expect: Expect, obs: Observation, where: Location, first: tuple[str, ...] = ()) -> list[Problem]:
    """Exit code, timeout, flooding, undecodable output and stdin reads, at ``where``; the
    details are ``first`` (where the crash came from) then stderr's tail."""
    tail = (*first, *obs.stderr.strip().splitlines()[-12:])
    if obs.flooded:
        return [Problem(where, f"killed: its {obs.flooded} passed {MAX_CAPTURE_BYTES:,} bytes (flooding output?)")]
    if obs.timed_out:
        return [Problem(where, f"killed after its {obs.timeout_s:g}s timeout (process group sent SIGKILL)", tail)]
    problems = [Problem(where, obs.anomaly, tail)] if obs.anomaly else []
    if obs.not_utf8:
        problems.append(Problem(where, f"printed output that is not UTF-8: {obs.not_utf8}"))
    if obs.exit_code != expect.exit_code:
        how = f"signal {-obs.exit_code} ({_signal_name(-obs.exit_code)})" if obs.exit_code < 0 else str(obs.exit_code)
        what = f"exit code: expected {expect.exit_code}, got {how}"
        if "EOFError" in obs.stderr:
            what += "; it read standard input, which snippets never get"
        reached = _reached_for(obs.stderr)
        if reached:
            what += f"; it tried to reach {reached}, but only the mock model on 127.0.0.1 is reachable"
        problems.append(Problem(where, what, tail))
    return problems


# How a process that is not Python says it could not reach a host from inside the network
# namespace (verified_docs.run.netns): no name resolves, no outside address is routed.
_UNREACHED = (
    re.compile(r"verified_docs: offline: this snippet tried to reach ('[^']*')"),  # the Python-level block
    re.compile(r"Could not resolve host: ([^\s;'\"]+)"),  # curl, git over HTTPS
    re.compile(r"getaddrinfo (?:ENOTFOUND|EAI_AGAIN) ([^\s;'\"]+)"),  # node, npm
    re.compile(r"Could not resolve hostname ([^\s:;'\"]+)"),  # ssh, git over SSH
    re.compile(r"Failed to connect to ([^\s;'\"]+) port"),  # curl to an address
)


def _reached_for(stderr: str) -> str | None:
    """The host (quoted) a snippet's process says it failed to reach, or None."""
    for pattern in _UNREACHED:
        found = pattern.search(stderr)
        if found:
            host = found.group(1)
            return host if host.startswith("'") else repr(host)
    return None


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return "unknown signal"


@dataclass(frozen=True)
class _Check:
    """One evidence item: ``observe(obs, stated)`` is what the run showed, ``prepare(stated)``
    what the scenario states in the same shape; ``traced`` items need the tracer's events."""

    key: str
    observe: Callable[[Observation, Any], Any]
    prepare: Callable[[Any], Any] = lambda v: v
    traced: bool = False


def _tool_answers(obs: Observation) -> str:
    return _as_json([{"tool": e["tool"], "answer": e["answer"]} for e in obs.trace if e["event"] == "tool_execute"])


def _answer_data_read(obs: Observation) -> list[Any]:
    return [
        e.get("answer_data_read", False) for e in obs.trace if e["event"] == "tool_execute" and e["answer"] is not None
    ]


def _tool_metrics(obs: Observation) -> list[dict[str, Any]]:
    return [
        {"tool": e["tool"], "is_error": e["is_error"], "pending": e["pending"]}
        for e in obs.trace
        if e["event"] == "metric_tool"
    ]


# In the order they are checked (and their problems reported).
_CHECKS = (
    _Check("model_requests", lambda obs, _: len(obs.requests)),
    _Check(
        "transcript_balanced",
        lambda obs, _: all(is_balanced(r.body.get("messages") or []) for r in obs.requests if isinstance(r.body, dict)),
    ),
    _Check(
        "tool_results_shown",
        lambda obs, _: [normalise(s) for s in tool_results_shown(obs.requests)],
        lambda v: [normalise(s) for s in v],
    ),
    _Check("tool_runs", _tool_runs, dict, traced=True),
    _Check("tool_answers", lambda obs, _: _tool_answers(obs), lambda v: _as_json(list(v)), traced=True),
    _Check("requests_raised", _requests_raised, lambda v: _as_json(list(v)), traced=True),
    _Check("answer_data_read", lambda obs, _: _answer_data_read(obs), list, traced=True),
    _Check("wait_for_calls", lambda obs, _: sum(1 for e in obs.trace if e["event"] == "wait_for"), traced=True),
    _Check("sequence", lambda obs, _: sequence(obs.trace), list, traced=True),
    _Check("tool_metrics", lambda obs, _: _tool_metrics(obs), list, traced=True),
    _Check(
        "run_statuses", lambda obs, _: [e["status"] for e in obs.trace if e["event"] == "run_end"], list, traced=True
    ),
)


def check_evidence(expect: Expect, obs: Observation) -> list[Problem]:
    """Every evidence item ``expect`` states, checked against ``obs``; messages name the
    YAML line of the item that failed. A traced item in a language whose runner cannot
    observe it is a problem too, never a pass."""
    problems: list[Problem] = []

    def at(key: str) -> Location:
        return Location(expect.where.path, expect.line_of(key))

    for check in _CHECKS:
        stated = getattr(expect, check.key)
        if stated is None:
            continue
        if check.traced and not obs.traced:
            problems.append(Problem(at(check.key), f"{check.key}: this language's runner cannot observe it"))
            continue
        got, want = check.observe(obs, stated), check.prepare(stated)
        if got != want:
            problems.append(_mismatch(at(check.key), check.key, want, got))
    for text in expect.stdout_contains:
        if normalise(text) not in normalise(obs.stdout):
            problems.append(Problem(at("stdout_contains"), f"stdout_contains: {text!r} was not printed"))
    return problems
