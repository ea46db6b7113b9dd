"""timeline: a run's recorded requests and trace events become messages in order, and those
become one exact Mermaid text and one list of steps in words."""

from __future__ import annotations

import json

import pytest

from verified_docs.verify.timeline import Message, fit, mermaid, participants, steps_in_words, timeline, title, wrap

USER = {"role": "user", "content": "Ship the build to staging."}
CALL = {
    "role": "assistant",
    "content": None,
    "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "deploy", "arguments": '{"environment": "staging"}'}}
    ],
}
REQUEST = {"id": "deploy-staging", "kind": "approval", "prompt": "Deploy to staging?", "url": None, "data": None}
ANSWER = {"id": "deploy-staging", "ok": True, "data": {"approver": "dana"}, "reason": None}


def recorded_inline_run() -> tuple[list[dict], list[dict]]:
    """An approval answered inline, as the mock model and the tracer record it (times in ns).
    The trace is listed first on purpose: only the clock says what came before what."""
    trace = [
        {"event": "run_start", "via": "run", "prompt": USER["content"], "history": 0, "t": 100, "pid": 7},
        {"event": "tool_start", "tool": "deploy", "args": {"environment": "staging"}, "t": 300, "pid": 7},
        {
            "event": "tool_execute",
            "tool": "deploy",
            "args": {"environment": "staging"},
            "answer": None,
            "output": "Deploy to staging?",
            "is_error": True,
            "pending": REQUEST,
            "t": 400,
            "pid": 7,
        },
        {"event": "metric_tool", "tool": "deploy", "is_error": False, "pending": True, "t": 410, "pid": 7},
        {"event": "wait_for", "request": REQUEST, "t": 500, "pid": 7},
        {"event": "wait_for_answered", "request_id": "deploy-staging", "answer": ANSWER, "t": 600, "pid": 7},
        {"event": "tool_start", "tool": "deploy", "args": {"environment": "staging"}, "t": 650, "pid": 7},
        {
            "event": "tool_execute",
            "tool": "deploy",
            "args": {"environment": "staging"},
            "answer": ANSWER,
            "output": "deployed to staging, approved by dana",
            "is_error": False,
            "pending": None,
            "t": 700,
            "pid": 7,
        },
        {"event": "run_end", "status": "done", "pending": None, "text": "Shipped.", "t": 900, "pid": 7},
        {"event": "imports", "files": [], "t": 950, "pid": 7},
    ]
    requests = [
        {"at": 200, "body": {"messages": [USER]}, "status": 200, "reply": CALL, "error": None},
        {
            "at": 800,
            "body": {
                "messages": [
                    USER,
                    CALL,
                    {"role": "tool", "tool_call_id": "call_1", "content": "deployed to staging, approved by dana"},
                ]
            },
            "status": 200,
            "reply": {"role": "assistant", "content": "Shipped."},
            "error": None,
        },
    ]
    return requests, trace


EXPECTED_MERMAID = """\
---
config:
  sequence:
    width: 100
    actorMargin: 20
---
sequenceDiagram
    accTitle: What run approve of suspension/approval-gate did, in 12 messages
    autonumber
    participant p0 as model
    participant p1 as client
    participant p2 as tool<br>deploy
    participant p3 as wait_for
    participant p4 as host<br>approval_gate.py
    p4->>p1: run("Ship the build to<br>staging.")
    p1->>p0: user: "Ship the build<br>to staging."
    p0-->>p1: call deploy(<br>environment="staging")
    p1->>p2: deploy(environment=<br>"staging")
    p2-->>p1: pending Request(kind=<br>"approval", id=<br>"deploy-staging")
    p1->>p3: wait_for(Request(kind=<br>"approval", id=<br>"deploy-staging"))
    p3-->>p1: Answer(ok=True, data=<br>{"approver": "dana"})
    p1->>p2: deploy(environment=<br>"staging"), ctx.answer<br>ok=True
    p2-->>p1: "deployed to staging,<br>approved by dana"
    p1->>p0: tool result "deployed<br>to staging, approved<br>by dana"
    p0-->>p1: "Shipped."
    p1-->>p4: done: "Shipped."
"""


def test_a_recorded_inline_run_draws_this_exact_diagram() -> None:
    messages = timeline(*recorded_inline_run())
    text = mermaid(messages, title("suspension/approval-gate", "approve", messages), "approval_gate.py")
    assert text == EXPECTED_MERMAID


def test_the_steps_in_words_are_the_same_messages_in_the_same_order() -> None:
    messages = timeline(*recorded_inline_run())
    words = steps_in_words(messages, "approval_gate.py")
    assert len(words) == 12 == EXPECTED_MERMAID.count("->>")
    assert words[0] == ("host approval_gate.py → client", 'run("Ship the build to staging.")')
    assert words[5] == ("client → wait_for", 'wait_for(Request(kind="approval", id="deploy-staging"))')
    assert words[-1] == ("client → host approval_gate.py", 'done: "Shipped."')


def test_a_run_without_wait_for_ends_at_the_durable_halt() -> None:
    requests, trace = recorded_inline_run()
    halted = trace[:4] + [
        {"event": "run_end", "status": "pending", "pending": REQUEST, "text": "Deploy to staging?", "t": 450, "pid": 7}
    ]
    messages = timeline(requests[:1], halted)
    assert messages[-1] == Message(
        "client", "host", 'pending (durable halt): Request(kind="approval", id="deploy-staging")', reply=True
    )
    assert participants(messages) == ("model", "client", "tool:deploy", "host")  # no wait_for took part


def test_a_run_that_ends_without_text_says_only_its_status() -> None:
    ended = [
        {"event": "run_start", "via": "stream", "prompt": "Count.", "history": None, "t": 1, "pid": 2},
        {"event": "run_end", "status": "incomplete", "pending": None, "text": "", "t": 2, "pid": 2},
    ]
    assert timeline([], ended) == (
        Message("host", "client", 'stream("Count.")'),
        Message("client", "host", "incomplete", reply=True),
    )


def test_wait_for_called_while_a_tool_runs_is_the_tools_call() -> None:
    # An MCP elicitation: the toolkit's wait_for is called inside the tool's execution.
    trace = [
        {"event": "tool_start", "tool": "book", "args": {}, "t": 1, "pid": 3},
        {"event": "wait_for", "request": {"id": "elc-1a230f7feca-1", "kind": "input"}, "t": 2, "pid": 3},
        {
            "event": "wait_for_answered",
            "request_id": "elc-1a230f7feca-1",
            "answer": {"id": "elc-1a230f7feca-1", "ok": False, "data": None, "reason": "declined"},
            "t": 3,
            "pid": 3,
        },
        {
            "event": "tool_execute",
            "tool": "book",
            "args": {},
            "answer": None,
            "output": "not booked",
            "is_error": False,
            "pending": None,
            "t": 4,
            "pid": 3,
        },
    ]
    assert timeline([], trace) == (
        Message("host", "tool:book", "book()"),  # no run open: the program executed the toolkit itself
        Message("tool:book", "wait_for", 'wait_for(Request(kind="input", id="elc-<id>"))'),  # generated id normalised
        Message("wait_for", "tool:book", 'Answer(ok=False, reason="declined")', reply=True),
        Message("tool:book", "host", '"not booked"', reply=True),
    )


def test_a_rejected_request_and_several_tool_results_are_said_as_such() -> None:
    body = {
        "messages": [
            USER,
            CALL,
            {"role": "tool", "content": "a"},
            {"role": "tool", "content": "b"},
            {"role": "user", "content": "and?"},
        ]
    }
    messages = timeline(
        [
            {
                "at": 1,
                "body": body,
                "status": 400,
                "reply": None,
                "error": "tool_call_ids did not have response messages: call_2",
            }
        ],
        [],
    )
    assert messages == (
        Message("client", "model", '2 tool results "a", "b"; user: "and?"'),
        Message("model", "client", "rejected (400): tool_call_ids did not have response messages: call_2", reply=True),
    )


def test_mermaid_syntax_in_a_label_is_escaped_and_long_strings_are_cut_first() -> None:
    messages = (
        Message("client", "model", 'user: "a; b # <c> `d`"'),
        Message("model", "client", 'call ask(question="' + "x" * 80 + '"), ok', reply=True),
    )
    text = mermaid(messages, "t")
    assert '    p1->>p0: user: "a#59; b #35; #lt;c#gt; #96;d#96;"\n' in text
    assert fit('call ask(question="' + "x" * 80 + '"), ok', 60) == 'call ask(question="' + "x" * 34 + '…"), ok'
    assert text.count("\n    p") == 4  # two participants, two messages: nothing else
    assert wrap('x(a="' + "y" * 30 + '")', 22) == ["x(a=", '"' + "y" * 21, 'yyyyyyyyy")']


def test_messages_survive_the_ledger_and_the_cache_as_json() -> None:
    messages = timeline(*recorded_inline_run())
    assert tuple(Message.from_json(json.loads(json.dumps(m.to_json()))) for m in messages) == messages
    with pytest.raises(ValueError, match=r"not a recorded message: \['client', 'model'\]"):
        Message.from_json(["client", "model"])


def test_a_real_verified_run_records_its_story_from_the_mock_and_the_tracer(verification) -> None:
    # The durable park of answer-later, as this session verified it: the tracer's run and tool
    # events and the mock's request, merged by their clocks.
    park = verification.verdicts["suspension/answer-later"][0]
    question = '"Which environment should I deploy to?"'
    assert park.story == (
        Message("host", "client", 'run("Deploy the new build. Ask a human where it should go.")'),
        Message("client", "model", 'user: "Deploy the new build. Ask a human where it should go."'),
        Message("model", "client", f"call ask_human(question={question})", reply=True),
        Message("client", "tool:ask_human", f"ask_human(question={question})"),
        Message("tool:ask_human", "client", 'pending Request(kind="input", id="ask-fa3ca410e7")', reply=True),
        Message("client", "host", 'pending (durable halt): Request(kind="input", id="ask-fa3ca410e7")', reply=True),
    )
