"""Turn the next scripted step into a chat-completions reply, or raise why it cannot.

The script is an ordered list of :class:`~verified_docs.scenario.records.Step`. Each request consumes
one step. A request that arrives after the last step, that fails a step's matcher, or that
asks for something the step cannot do (quote a tool result when there is none, call a tool the
request did not declare) is *unexpected*: it is answered with an error and reported.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from verified_docs.errors import VerifiedDocsError
from verified_docs.run.mock_model.provider_rules import declared_tools
from verified_docs.scenario.records import Step

QUOTE_PREFIX = "The tool result I was shown: "


@dataclass(frozen=True)
class Reply:
    """The assistant message to send back, and its ``finish_reason``."""

    message: dict[str, Any]
    finish_reason: str


class UnexpectedRequest(VerifiedDocsError):
    """The request does not fit the scripted step; the message says why, in one sentence (the
    mock model answers the request with it, and reports it)."""


def last_tool_result(messages: list[dict[str, Any]]) -> str | None:
    """Content of the last ``tool`` message in ``messages`` (joined if it is a list of parts)."""
    for m in reversed(messages):
        if m.get("role") == "tool":
            content = m.get("content")
            if isinstance(content, list):
                return "".join(p.get("text", "") for p in content if isinstance(p, dict))
            return content if isinstance(content, str) else json.dumps(content)
    return None


def reply_for(step: Step, body: dict[str, Any], next_call_number: int) -> Reply:
    """The reply ``step`` makes to request ``body``. Raises :class:`UnexpectedRequest`, saying
    why in one sentence, when the request does not fit the step.

    ``next_call_number`` numbers generated tool-call ids (``call_<n>``) so they are unique
    within one mock model.
    """
    messages = body.get("messages") or []
    if step.when_last_message and (not messages or messages[-1].get("role") != step.when_last_message):
        got = messages[-1].get("role") if messages else "nothing"
        raise UnexpectedRequest(f"the step expects the last message to be '{step.when_last_message}', got '{got}'")
    if step.calls:
        tools = declared_tools(body)
        missing = [c.tool for c in step.calls if c.tool not in tools]
        if missing:
            raise UnexpectedRequest(
                f"the step calls {', '.join(missing)}, which the request does not declare "
                f"(declared: {', '.join(tools) or 'none'})"
            )
        calls = []
        for k, c in enumerate(step.calls):
            calls.append(
                {
                    "id": c.id or f"call_{next_call_number + k}",
                    "type": "function",
                    "function": {"name": c.tool, "arguments": json.dumps(c.arguments)},
                }
            )
        return Reply({"role": "assistant", "content": step.say, "tool_calls": calls}, "tool_calls")
    if step.quote_last_tool_result:
        shown = last_tool_result(messages)
        if shown is None:
            raise UnexpectedRequest("the step quotes the last tool result, but the request holds no tool message")
        return Reply({"role": "assistant", "content": QUOTE_PREFIX + shown}, "stop")
    return Reply({"role": "assistant", "content": step.reply}, "stop")
