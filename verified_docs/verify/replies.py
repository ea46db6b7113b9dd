"""Every delivered reply matters: vary each reply a tool received and see it travel.

After a scenario passes, every string value in the ``data`` of each Answer that reached a tool
(``ctx.answer``, SPEC §10 loop rule 1) is a *reply*. The harness runs the scenario again with
each reply replaced, where the tool receives it, by a fresh value (the tracer swaps it in
``Toolkit.execute``, from ``VERIFIED_DOCS_REPLY_SWAP``). Wherever the reply showed up in the
first pass (what the tool returned, what the model was shown, what the program printed), the
fresh value must show up in the second. A tool that reads the reply and then returns a
hard-coded value fails, whatever the scenario's hand-written ``variants`` say; a scenario cannot
opt out silently, only name a reply the tool uses without showing it (``replies_unseen``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Any

from verified_docs.errors import Location, Problem
from verified_docs.scenario.records import Expect

SWAP_ENV = "VERIFIED_DOCS_REPLY_SWAP"  # read by run/tracer/verified_docs_toolnexus.py
MIN_LENGTH = 3  # shorter strings ("ok", "y") occur everywhere by chance: nothing to trace


@dataclass(frozen=True)
class ReplyTrace:
    """What one run did with replies: the ``replies`` (string values of the Answer data the
    tools received, in order, each once), the ``answered_outputs`` (each tool execution that
    had an Answer: its output as text, in order), what the model was ``shown`` (tool results,
    in order) and the ``stdout``."""

    replies: tuple[str, ...]
    answered_outputs: tuple[str, ...]
    shown: tuple[str, ...]
    stdout: str


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def reply_trace(trace: tuple[dict[str, Any], ...], shown: list[str], stdout: str) -> ReplyTrace:
    """A :class:`ReplyTrace` from the tracer's events (``tool_execute`` with its ``answer``)."""
    replies: list[str] = []
    outputs: list[str] = []
    for e in trace:
        if e["event"] != "tool_execute" or not e.get("answer"):
            continue
        for s in _strings(e["answer"].get("data")):
            if len(s) >= MIN_LENGTH and s not in replies:
                replies.append(s)
        out = e.get("output")
        outputs.append(out if isinstance(out, str) else json.dumps(out, default=str))
    return ReplyTrace(tuple(replies), tuple(outputs), tuple(shown), stdout)


def fresh_value(reply: str) -> str:
    """A value of the same shape as ``reply`` that shares no character position with it: an
    ISO date moves by 37 days (a tool may parse it); otherwise each letter shifts by 13 within
    its case and each digit by 5, and everything else stays (``@``, ``-``, spaces)."""
    try:
        return (date.fromisoformat(reply) + timedelta(days=37)).isoformat()
    except ValueError:
        pass

    def shift(c: str) -> str:
        if "a" <= c <= "z":
            return chr((ord(c) - 97 + 13) % 26 + 97)
        if "A" <= c <= "Z":
            return chr((ord(c) - 65 + 13) % 26 + 65)
        if c.isdigit():
            return str((int(c) + 5) % 10)
        return c

    return "".join(shift(c) for c in reply)


def fresh_values(replies: list[str]) -> dict[str, str]:
    """A fresh value per reply (:func:`fresh_value`), unlike every reply and never containing
    one; a clash (or a reply with nothing to shift) gets a numbered suffix."""
    out: dict[str, str] = {}
    for reply in replies:
        fresh = fresh_value(reply)
        n = 1
        while fresh == reply or any(r in fresh or fresh in r for r in replies) or fresh in out.values():
            fresh = f"{fresh_value(reply)}-{n}"
            n += 1
        out[reply] = fresh
    return out


def structural_expect(expect: Expect) -> Expect:
    """``expect`` for the reply pass: what must not change when only a reply's text does (how
    often each tool ran, ``wait_for`` calls, statuses, order, requests, balance, metrics, exit
    code). The textual evidence is compared with the first pass instead (:func:`compare`): a
    reply's text can also occur where it was never the reply (a question's options)."""
    return replace(expect, tool_results_shown=None, tool_answers=None, requests_raised=None, stdout_contains=())


def _label(mapping: dict[str, str], reply: str) -> str:
    return f"the reply {reply!r} (replaced by {mapping[reply]!r} in a second pass)"


def compare(
    base: ReplyTrace, varied: ReplyTrace, mapping: dict[str, str], unseen: dict[str, str], where: Location
) -> list[Problem]:
    """Problems where a fresh value did not travel where its reply did. ``unseen`` names
    replies a tool may use without showing them (value -> the scenario's reason)."""
    problems: list[Problem] = []
    for reply in base.replies:
        fresh = mapping[reply]
        found = False
        for i, (before, after) in enumerate(zip(base.answered_outputs, varied.answered_outputs, strict=False), start=1):
            if reply in before:
                found = True
                if fresh not in after:
                    problems.append(
                        Problem(
                            where,
                            f"the reply {reply!r} did not change what the tool returned; is it hard-coded?",
                            (
                                f"answered execution #{i} returned {before!r}",
                                f"with {reply!r} replaced by {fresh!r} it returned {after!r}",
                            ),
                        )
                    )
        for before, after in zip(base.shown, varied.shown, strict=False):
            if reply in before:
                found = True
                if fresh not in after and not problems:
                    problems.append(
                        Problem(
                            where,
                            f"{_label(mapping, reply)} did not change what the model was shown",
                            (f"shown {before!r}", f"then shown {after!r}"),
                        )
                    )
        if reply in base.stdout:
            found = True
        if not found and reply not in unseen:
            problems.append(
                Problem(
                    where,
                    f"{_label(mapping, reply)} reached the tool, but nothing the tool returned, "
                    "the model was shown or the program printed contains it",
                    (
                        "a tool that uses a reply without showing it: name it under `replies_unseen` "
                        "in scenario.yaml with the reason",
                    ),
                )
            )
    return problems
