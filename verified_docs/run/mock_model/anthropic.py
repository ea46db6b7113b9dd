"""The Anthropic Messages wire format (``POST /v1/messages``), translated at the mock's edge.

A program whose client uses ``style="anthropic"`` sends Anthropic's request shape and expects
Anthropic's reply shape. The mock keeps one script and one set of evidence checks, both written
against chat-completions messages, so a Messages request is translated into the equivalent
chat-completions body before it is checked, matched and recorded, and the scripted reply is
translated back. Only the parts of the format a tool-calling run uses are covered: text and
``tool_use`` blocks from the assistant, text and ``tool_result`` blocks from the user, a
``system`` string, and tool declarations. Streaming is not served (see :data:`NO_STREAM`).
"""

from __future__ import annotations

import json
from typing import Any

MESSAGES_PATH = "/v1/messages"
NO_STREAM = "this mock model does not stream the Anthropic Messages format"


def _text_of(content: Any) -> str:
    """A tool result's or text block's content as one string (a list of text blocks joined)."""
    if isinstance(content, list):
        return "".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    return content if isinstance(content, str) else json.dumps(content)


def to_chat(body: Any) -> Any:
    """The chat-completions body equivalent to Messages request ``body``: ``system`` as a
    system message, each ``tool_result`` block as a ``tool`` message (``tool_call_id`` = its
    ``tool_use_id``), each assistant ``tool_use`` block as a ``tool_calls`` entry (arguments as
    JSON text, content None when the turn had no text), tools as function declarations.
    Anything that is not a JSON object is returned unchanged, for the provider rules to refuse."""
    if not isinstance(body, dict):
        return body
    messages: list[dict[str, Any]] = []
    if isinstance(body.get("system"), str) and body["system"]:
        messages.append({"role": "system", "content": body["system"]})
    for m in body.get("messages") or []:
        if not isinstance(m, dict) or not isinstance(m.get("content"), list):
            messages.append(m)
            continue
        blocks = [b for b in m["content"] if isinstance(b, dict)]
        if m.get("role") == "assistant":
            text = "".join(b.get("text", "") for b in blocks if b.get("type") == "text")
            calls = [
                {
                    "id": b.get("id"),
                    "type": "function",
                    "function": {"name": b.get("name"), "arguments": json.dumps(b.get("input") or {})},
                }
                for b in blocks
                if b.get("type") == "tool_use"
            ]
            out: dict[str, Any] = {"role": "assistant", "content": text or None}
            if calls:
                out["tool_calls"] = calls
            messages.append(out)
            continue
        for b in blocks:
            if b.get("type") == "tool_result":
                messages.append(
                    {"role": "tool", "tool_call_id": b.get("tool_use_id"), "content": _text_of(b.get("content"))}
                )
        text = "".join(b.get("text", "") for b in blocks if b.get("type") == "text")
        if text:
            messages.append({"role": m.get("role"), "content": text})
    chat = {k: v for k, v in body.items() if k not in ("system", "messages", "tools", "max_tokens")}
    chat["messages"] = messages
    if body.get("tools"):
        chat["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": t.get("name"),
                    "description": t.get("description", ""),
                    "parameters": t.get("input_schema") or {},
                },
            }
            for t in body["tools"]
            if isinstance(t, dict)
        ]
    return chat


def to_message(completion: dict[str, Any]) -> dict[str, Any]:
    """The Messages reply equivalent to chat ``completion``: a text block for its content
    (when there is any), then a ``tool_use`` block per tool call (``input`` parsed from the
    arguments), ``stop_reason`` ``tool_use`` or ``end_turn``, and usage in input/output tokens."""
    message = completion["choices"][0]["message"]
    content: list[dict[str, Any]] = []
    if message.get("content"):
        content.append({"type": "text", "text": message["content"]})
    for call in message.get("tool_calls") or []:
        content.append(
            {
                "type": "tool_use",
                "id": call["id"],
                "name": call["function"]["name"],
                "input": json.loads(call["function"]["arguments"]),
            }
        )
    usage = completion["usage"]
    return {
        "id": completion["id"].replace("chatcmpl", "msg"),
        "type": "message",
        "role": "assistant",
        "model": completion["model"],
        "content": content,
        "stop_reason": "tool_use" if message.get("tool_calls") else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": usage["prompt_tokens"], "output_tokens": usage["completion_tokens"]},
    }


def error_body(message: str, status: int) -> dict[str, Any]:
    """Anthropic's error envelope: ``{"type": "error", "error": {"type", "message"}}``."""
    kind = {401: "authentication_error", 404: "not_found_error"}.get(status, "invalid_request_error")
    return {"type": "error", "error": {"type": kind, "message": message}}
