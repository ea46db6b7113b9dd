"""What a real OpenAI-compatible provider refuses, checked on every request.

Each check returns an :class:`ProviderRejection` (HTTP 400 with OpenAI's error body) or
``None``. Messages follow the wording providers use so that a reader who meets the same
mistake against a real provider recognises it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ROLES = ("system", "developer", "user", "assistant", "tool")


@dataclass(frozen=True)
class ProviderRejection:
    """An HTTP error the provider would answer with. ``param`` names the offending field."""

    message: str
    param: str | None = None
    status: int = 400
    type: str = "invalid_request_error"

    def body(self) -> dict[str, Any]:
        """OpenAI's error envelope: ``{"error": {"message", "type", "param", "code"}}``."""
        return {"error": {"message": self.message, "type": self.type, "param": self.param, "code": None}}


def declared_tools(body: dict[str, Any]) -> list[str]:
    """Names of the function tools the request declares, in order."""
    names = []
    for t in body.get("tools") or []:
        fn = t.get("function") if isinstance(t, dict) else None
        if isinstance(fn, dict) and isinstance(fn.get("name"), str):
            names.append(fn["name"])
    return names


def check_request(body: Any) -> ProviderRejection | None:
    """Validate a chat-completions request body the way a strict provider does.

    Checks: ``model`` and a non-empty ``messages`` list; known roles; every assistant
    ``tool_calls`` entry answered by a ``tool`` message before the next non-tool message; no
    ``tool`` message without a preceding call of that id; no call in the history to a tool the
    request does not declare.
    """
    if not isinstance(body, dict):
        return ProviderRejection("We could not parse the JSON body of your request.")
    if not isinstance(body.get("model"), str) or not body["model"]:
        return ProviderRejection("you must provide a model parameter", "model")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return ProviderRejection("'messages' must be a non-empty array", "messages")
    return _history_rejection(messages, set(declared_tools(body)))


def _unanswered(outstanding: list[str], index: int) -> ProviderRejection:
    """The rejection of a non-tool message at ``index`` (or the end) while calls are unanswered."""
    return ProviderRejection(
        "An assistant message with 'tool_calls' must be followed by tool messages responding to "
        "each 'tool_call_id'. The following tool_call_ids did not have response messages: " + ", ".join(outstanding),
        f"messages.[{index}].role",
    )


def _undeclared_call(message: dict[str, Any], index: int, tools: set[str]) -> ProviderRejection | None:
    """The rejection of an assistant message calling a tool that is not among ``tools``."""
    for call in message.get("tool_calls") or []:
        name = (call.get("function") or {}).get("name")
        if name not in tools:
            return ProviderRejection(
                f"Invalid 'messages[{index}].tool_calls': tool '{name}' is not among the tools "
                f"this request declares ({', '.join(sorted(tools)) or 'none'}).",
                f"messages.[{index}].tool_calls",
            )
    return None


def _history_rejection(messages: list[Any], tools: set[str]) -> ProviderRejection | None:
    """The first way ``messages`` break the rules on roles and tool calls, or None."""
    outstanding: list[str] = []  # tool_call ids of the last assistant turn not yet answered
    answerable: set[str] = set()
    for i, m in enumerate(messages):
        role = m.get("role") if isinstance(m, dict) else None
        if role not in ROLES:
            return ProviderRejection(
                f"Invalid value: '{role}'. Supported values are: {', '.join(ROLES)}.", f"messages.[{i}].role"
            )
        if role == "tool":
            call_id = m.get("tool_call_id")
            if call_id not in answerable:
                return ProviderRejection(
                    "Invalid parameter: messages with role 'tool' must be a response to a preceeding "
                    "message with 'tool_calls'.",
                    f"messages.[{i}].role",
                )
            answerable.discard(call_id)
            if call_id in outstanding:
                outstanding.remove(call_id)
            continue
        if outstanding:
            return _unanswered(outstanding, i)
        if role != "assistant":
            answerable = set()
            continue
        rejection = _undeclared_call(m, i, tools)
        if rejection is not None:
            return rejection
        outstanding = [call.get("id") for call in m.get("tool_calls") or []]
        answerable = set(outstanding)
    if outstanding:
        return _unanswered(outstanding, len(messages))
    return None


def is_balanced(messages: list[dict[str, Any]]) -> bool:
    """True when every assistant tool call in ``messages`` has its tool message."""
    fake = {
        "model": "m",
        "messages": messages,
        "tools": [
            {"type": "function", "function": {"name": (c.get("function") or {}).get("name")}}
            for m in messages
            if isinstance(m, dict)
            for c in (m.get("tool_calls") or [])
        ],
    }
    rejection = check_request(fake)
    return rejection is None
