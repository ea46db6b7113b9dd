"""What happened in one run, in order: the messages between the model, the client, the tools,
``wait_for`` and the host, read from what the run recorded.

Two records, neither written by the snippet: the mock model's requests (what the client sent,
what the model replied, when) and the tracer's events (a run began or ended, a tool started or
returned, ``wait_for`` was called or answered; see ``run/tracer/sitecustomize.py``). Both
carry ``time.monotonic_ns()`` stamps from the machine's one monotonic clock, so they merge
into one order. :func:`timeline` turns them into :class:`Message` records; :func:`mermaid`
draws those as a Mermaid sequence diagram and :func:`steps_in_words` lists the same messages
as sentences (the diagram's text alternative). Pure functions: no I/O, no site generator.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from verified_docs.verify.normalise import normalise

# Participants, left to right: the model, then toolnexus' client, then what the client calls,
# then the program around it (its wait_for callback, then the host code that started the run).
MODEL, CLIENT, WAIT_FOR, HOST = "model", "client", "wait_for", "host"
TOOL_PREFIX = "tool:"
# Longest label drawn on an arrow (characters), in lines of at most LINE characters; the steps
# in words get the longer limit. Short lines keep the lifelines close: at 16 px (Material's
# size for Mermaid text) a diagram of five participants is then about 900 px wide, so the
# page's column shows it at 80% instead of half size.
DIAGRAM_LABEL = 60
LINE = 22
WORDS_LABEL = 220
# Mermaid's own spacing, in the diagram's front matter: narrower actor boxes and margins than
# its defaults (150 px, 50 px), for the same reason.
LAYOUT = ("---", "config:", "  sequence:", "    width: 100", "    actorMargin: 20", "---")


@dataclass(frozen=True)
class Message:
    """One arrow: ``sender`` to ``receiver`` (``model``, ``client``, ``tool:<name>``,
    ``wait_for`` or ``host``), what it carried in ``text`` (volatile ids normalised, not
    shortened), and whether it is a ``reply`` to an earlier call (drawn dashed)."""

    sender: str
    receiver: str
    text: str
    reply: bool = False

    def to_json(self) -> list[Any]:
        """``[sender, receiver, text, reply]``: how the cache and the ledger keep it."""
        return [self.sender, self.receiver, self.text, self.reply]

    @classmethod
    def from_json(cls, value: list[Any]) -> "Message":
        """The inverse of :meth:`to_json`; raises ``ValueError`` on another shape."""
        if not (
            isinstance(value, list)
            and len(value) == 4
            and all(isinstance(v, str) for v in value[:3])
            and isinstance(value[3], bool)
        ):
            raise ValueError(f"not a recorded message: {value!r}")
        return cls(value[0], value[1], value[2], value[3])


def _value(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False, sort_keys=True, default=str)


def _call(name: str, args: dict[str, Any]) -> str:
    return f"{name}({', '.join(f'{k}={_value(v)}' for k, v in (args or {}).items())})"


def _request(r: dict[str, Any] | None) -> str:
    """``Request(kind="approval", id="deploy-staging")``: what tells one Request from another."""
    if not isinstance(r, dict):
        return "Request"
    return f"Request(kind={_value(r.get('kind'))}, id={_value(r.get('id'))})"


def _answer(a: dict[str, Any] | None) -> str:
    if not isinstance(a, dict):
        return "None"
    parts = [f"ok={a.get('ok')!r}"]
    if a.get("data") is not None:
        parts.append(f"data={_value(a['data'])}")
    if a.get("reason") is not None:
        parts.append(f"reason={_value(a['reason'])}")
    return f"Answer({', '.join(parts)})"


def _text(value: Any) -> str:
    """A message's content or a tool's output: a string quoted, content parts by their text,
    anything else as JSON."""
    if isinstance(value, list) and all(isinstance(p, dict) for p in value):  # content parts
        value = "".join(str(p.get("text", "")) for p in value)
    return _value(value)


def _what_was_sent(body: Any) -> str:
    """The messages a request added after the model's last turn: the user's prompt, or the
    tool results the model is shown."""
    messages = body.get("messages") if isinstance(body, dict) else None
    if not isinstance(messages, list):
        return "a request that is not chat JSON"
    tail: list[dict[str, Any]] = []
    for m in reversed(messages):
        if not isinstance(m, dict) or m.get("role") == "assistant":
            break
        tail.insert(0, m)
    parts: list[str] = []
    run: list[str] = []  # consecutive tool results, said together

    def said() -> None:
        if run:
            parts.append(f"tool result {run[0]}" if len(run) == 1 else f"{len(run)} tool results {', '.join(run)}")
            run.clear()

    for m in tail:
        if m.get("role") == "tool":
            run.append(_text(m.get("content")))
        elif m.get("role") != "system":
            said()
            parts.append(f"{m.get('role')}: {_text(m.get('content'))}")
    said()
    return "; ".join(parts) or f"{len(messages)} message(s), none new"


def _what_came_back(request: dict[str, Any]) -> str:
    if request.get("status") != 200 or not isinstance(request.get("reply"), dict):
        return f"rejected ({request.get('status')}): {request.get('error') or 'no reason given'}"
    reply = request["reply"]
    parts = [_text(reply["content"])] if reply.get("content") else []
    calls = []
    for c in reply.get("tool_calls") or []:
        fn = c.get("function") or {}
        try:
            args = json.loads(fn.get("arguments") or "{}")
        except json.JSONDecodeError:
            args = {"arguments": fn.get("arguments")}
        calls.append(_call(fn.get("name", "?"), args if isinstance(args, dict) else {"arguments": args}))
    if calls:
        parts.append("call " + ", ".join(calls))
    return "; ".join(parts) or "an empty reply"


def _merged(requests: Iterable[dict[str, Any]], trace: Iterable[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """Requests and trace events in the order they happened (stable: ties keep each record's
    own order, requests first)."""
    items = [(r.get("at", 0), 0, i, "request", r) for i, r in enumerate(requests)]
    items += [(e.get("t", 0), 1, i, "event", e) for i, e in enumerate(trace)]
    return [(kind, record) for *_, kind, record in sorted(items, key=lambda x: x[:3])]


def timeline(requests: Iterable[dict[str, Any]], trace: Iterable[dict[str, Any]]) -> tuple[Message, ...]:
    """The messages of one run, in order, from the mock model's ``requests`` (each a dict with
    ``at``, ``body``, ``status``, ``reply``, ``error``: see :class:`~verified_docs.run.mock_model.server.RecordedRequest`)
    and the tracer's ``trace`` events.

    A tool is called by the client while a run is open in its process, else by the host (a
    program that executes a toolkit by hand); ``wait_for`` is called by the tool that is
    executing when it is called (an MCP elicitation), else by the client. Volatile values
    (generated ids, ports) are normalised, so the same run draws the same picture every time.
    """
    story = _Story(_merged(requests, trace))
    for i, (kind, r) in enumerate(story.records):
        if kind == "request":
            story.request(r)
        elif r.get("event") in _EVENTS:
            _EVENTS[r["event"]](story, r, i)
    return tuple(story.out)


class _Story:
    """The messages of a run told so far, and who is in the middle of what: the runs open and
    the tools executing (innermost last) in each process, and who called each ``wait_for``
    still unanswered. One method per kind of record; ``i`` is the record's index."""

    def __init__(self, records: list[tuple[str, dict[str, Any]]]) -> None:
        self.records = records
        self.out: list[Message] = []
        self.open_runs: dict[Any, int] = {}
        self.open_tools: dict[Any, list[str]] = {}
        self.waiting: list[str] = []

    def add(self, sender: str, receiver: str, text: str, reply: bool = False) -> None:
        self.out.append(Message(sender, receiver, normalise(text), reply))

    def request(self, r: dict[str, Any]) -> None:
        self.add(CLIENT, MODEL, _what_was_sent(r.get("body")))
        self.add(MODEL, CLIENT, _what_came_back(r), reply=True)

    def run_start(self, r: dict[str, Any], i: int) -> None:
        pid = r.get("pid")
        self.open_runs[pid] = self.open_runs.get(pid, 0) + 1
        history = f", history of {r['history']} message(s)" if r.get("history") else ""
        self.add(HOST, CLIENT, f"{r.get('via', 'run')}({_value(r.get('prompt'))}{history})")

    def run_end(self, r: dict[str, Any], i: int) -> None:
        pid = r.get("pid")
        self.open_runs[pid] = max(self.open_runs.get(pid, 0) - 1, 0)
        status = r.get("status")
        if status == "pending":
            self.add(CLIENT, HOST, f"pending (durable halt): {_request(r.get('pending'))}", reply=True)
        else:  # done, incomplete (the text, when there is one, is the model's last)
            self.add(CLIENT, HOST, f"{status}: {_value(r['text'])}" if r.get("text") else str(status), reply=True)

    def _caller(self, r: dict[str, Any]) -> str:
        """Who calls a tool: the client while a run is open in the tool's process, else the host."""
        return CLIENT if self.open_runs.get(r.get("pid")) else HOST

    def tool_start(self, r: dict[str, Any], i: int) -> None:
        name = str(r.get("tool"))
        answer = _answer_of_matching_end(self.records, i)
        # The Answer's data is on the wait_for arrow just before (where there is one).
        suffix = f", ctx.answer ok={answer.get('ok')!r}" if isinstance(answer, dict) else ""
        self.add(self._caller(r), TOOL_PREFIX + name, _call(name, r.get("args") or {}) + suffix)
        self.open_tools.setdefault(r.get("pid"), []).append(name)

    def tool_execute(self, r: dict[str, Any], i: int) -> None:
        name, caller = str(r.get("tool")), self._caller(r)
        stack = self.open_tools.setdefault(r.get("pid"), [])
        if name in stack:  # the innermost execution of that tool ends
            stack.reverse()
            stack.remove(name)
            stack.reverse()
        else:  # a trace from before tool_start existed: draw the call here
            self.add(caller, TOOL_PREFIX + name, _call(name, r.get("args") or {}))
        if r.get("pending"):
            result = f"pending {_request(r['pending'])}"
        elif r.get("is_error"):
            result = f"error {_text(r.get('output'))}"
        else:
            result = _text(r.get("output"))
        self.add(TOOL_PREFIX + name, caller, result, reply=True)

    def wait_for(self, r: dict[str, Any], i: int) -> None:
        stack = self.open_tools.get(r.get("pid")) or []
        caller = TOOL_PREFIX + stack[-1] if stack else CLIENT
        self.waiting.append(caller)
        self.add(caller, WAIT_FOR, f"wait_for({_request(r.get('request'))})")

    def wait_for_answered(self, r: dict[str, Any], i: int) -> None:
        caller = self.waiting.pop() if self.waiting else CLIENT
        self.add(WAIT_FOR, caller, _answer(r.get("answer")), reply=True)

    def stream_pending(self, r: dict[str, Any], i: int) -> None:
        self.add(CLIENT, HOST, f"stream event: pending {_request(r.get('request'))}")


# The tracer's events a story tells, each by the method of the same name; others are skipped.
_EVENTS: dict[str, Callable[[_Story, dict[str, Any], int], None]] = {
    name: getattr(_Story, name)
    for name in (
        "run_start",
        "run_end",
        "tool_start",
        "tool_execute",
        "wait_for",
        "wait_for_answered",
        "stream_pending",
    )
}


def _answer_of_matching_end(records: list[tuple[str, dict[str, Any]]], start: int) -> dict[str, Any] | None:
    """The ``answer`` of the ``tool_execute`` that ends the ``tool_start`` at ``start``
    (the next one of the same tool and process with as many starts as ends in between)."""
    begun = records[start][1]
    depth = 0
    for kind, r in records[start + 1 :]:
        if kind != "event" or r.get("pid") != begun.get("pid") or r.get("tool") != begun.get("tool"):
            continue
        if r.get("event") == "tool_start":
            depth += 1
        elif r.get("event") == "tool_execute":
            if depth == 0:
                return r.get("answer")
            depth -= 1
    return None


def participants(messages: Iterable[Message]) -> tuple[str, ...]:
    """Who took part, left to right: the model, the client, each tool (in order of first
    appearance), ``wait_for``, the host; only those some message names."""
    named: list[str] = []
    for m in messages:
        for p in (m.sender, m.receiver):
            if p not in named:
                named.append(p)
    tools = [p for p in named if p.startswith(TOOL_PREFIX)]
    fixed = [MODEL, CLIENT, *tools, WAIT_FOR, HOST]
    return tuple(p for p in fixed if p in named)


def shorten(text: str, limit: int) -> str:
    """``text`` on one line (``⏎`` marks a line break), cut to ``limit`` characters with ``…``."""
    flat = " ⏎ ".join(part.strip() for part in text.replace("\r\n", "\n").split("\n"))
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def fit(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters, keeping its shape: the longest quoted string
    is cut first (``"Which environment…"``), again while too long, and only then the end."""
    text = shorten(text, 10**6)
    while len(text) > limit:
        strings = list(_STRING.finditer(text))
        if not strings:
            break
        longest = max(strings, key=lambda m: len(m.group()))
        body = longest.group()
        if len(body) <= 10:
            break
        keep = max(8, len(body) - (len(text) - limit) - 1)
        text = text[: longest.start()] + body[: keep - 1].rstrip() + '…"' + text[longest.end() :]
    return shorten(text, limit)


def label(participant: str, program: str = "") -> str:
    """How a participant is named in the picture and in words: ``tool deploy``, ``model``,
    ``host park.py`` (the host is the ``program`` that ran, when named)."""
    if participant.startswith(TOOL_PREFIX):
        return f"tool {participant[len(TOOL_PREFIX) :]}"
    if participant == HOST:
        return f"host {program}" if program else "host program"
    return participant


_ENTITY = {"#": "#35;", ";": "#59;", "<": "#lt;", ">": "#gt;", "`": "#96;"}
_SYNTAX = re.compile("[#;<>`]")


def _escape(text: str) -> str:
    """Mermaid's entity codes for what its sequence grammar reads as syntax: ``#`` and ``;``
    end a message, ``<``/``>`` would be taken as HTML; a backtick could close the Markdown
    fence around the diagram."""
    return _SYNTAX.sub(lambda m: _ENTITY[m.group()], text)


def title(scenario: str, run: str, messages: tuple[Message, ...]) -> str:
    """The diagram's accessible title: which run it draws and how many messages it holds."""
    return f"What run {run} of {scenario} did, in {len(messages)} messages"


def mermaid(messages: tuple[Message, ...], title: str, program: str = "") -> str:
    """A Mermaid ``sequenceDiagram`` of ``messages``: numbered arrows (solid for a call, dashed
    for a reply), one lifeline per participant, ``title`` as its accessible title, the host
    named after ``program``. Labels are shortened to :data:`DIAGRAM_LABEL` characters;
    :func:`steps_in_words` has them longer. Only what the ledger keeps goes in, so the guard
    can tell a drawn diagram from a hand-written one (:func:`~verified_docs.ledger.Ledger.verified_hashes`)."""
    ids = {p: f"p{i}" for i, p in enumerate(participants(messages))}
    lines = [*LAYOUT, "sequenceDiagram", f"    accTitle: {_escape(shorten(title, 120))}", "    autonumber"]
    lines += [f"    participant {pid} as {_lines(label(p, program).split(' ', 1))}" for p, pid in ids.items()]
    for m in messages:
        arrow = "-->>" if m.reply else "->>"
        wrapped = wrap(fit(m.text, DIAGRAM_LABEL), LINE) or ["(empty)"]
        lines.append(f"    {ids[m.sender]}{arrow}{ids[m.receiver]}: {_lines(wrapped)}")
    return "\n".join(lines) + "\n"


_PIECE = re.compile(r"[^ (,=]*[ (,=]*")


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters, broken after a space, ``(``, ``,``
    or ``=`` where it can (``deploy(`` / ``environment="staging")``), else inside a word."""
    lines = [""]
    for piece in (p for p in _PIECE.findall(text) if p):
        if len(lines[-1]) + len(piece.rstrip()) > width and lines[-1]:
            lines.append("")
        lines[-1] += piece
        while len(lines[-1].rstrip()) > width:
            head, rest = lines[-1][:width], lines[-1][width:]
            lines[-1:] = [head, rest]
    return [line.rstrip() for line in lines if line.strip()]


def _lines(parts: list[str]) -> str:
    """Lines of a Mermaid label, each escaped, joined by Mermaid's line break."""
    return "<br>".join(_escape(part) for part in parts)


def steps_in_words(messages: tuple[Message, ...], program: str = "") -> tuple[tuple[str, str], ...]:
    """Each message as (``sender → receiver``, text shortened to :data:`WORDS_LABEL`), in
    order: the diagram's text alternative, numbered as the diagram numbers its arrows."""
    return tuple(
        (f"{label(m.sender, program)} → {label(m.receiver, program)}", fit(m.text, WORDS_LABEL)) for m in messages
    )
