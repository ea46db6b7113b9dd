"""The mock model's HTTP front: ``POST /v1/chat/completions`` on 127.0.0.1, ephemeral port
(and ``POST /v1/messages``, Anthropic's format, translated by :mod:`verified_docs.run.mock_model.anthropic`).

Built on the standard library's ``http.server`` (a threading server in a background thread):
every language's snippet talks to it over real HTTP, exactly as it would to a provider.
"""

from __future__ import annotations

import json
import os
import secrets
import selectors
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from verified_docs.errors import Location, Problem
from verified_docs.run.mock_model import anthropic
from verified_docs.run.mock_model.provider_rules import ProviderRejection, check_request
from verified_docs.run.mock_model.script import Reply, UnexpectedRequest, reply_for
from verified_docs.scenario.records import Step

CHAT_PATH = "/v1/chat/completions"


@dataclass(frozen=True)
class RecordedRequest:
    """One request as received. ``body`` is the parsed JSON (``None`` if it was not JSON);
    ``step`` is the 0-based script position it consumed, or ``None`` if it consumed none;
    ``status`` is the HTTP status sent back; ``error`` the reason when it was not 200;
    ``reply`` the assistant message sent back (200 only); ``at`` when it arrived, in
    ``time.monotonic_ns()`` (the clock the tracer stamps events with, so both merge in order).
    A request to :data:`~verified_docs.run.mock_model.anthropic.MESSAGES_PATH` is recorded with ``body`` translated to the
    chat-completions shape (:func:`~verified_docs.run.mock_model.anthropic.to_chat`), so evidence reads both alike."""

    index: int
    path: str
    body: Any
    status: int
    step: int | None
    error: str | None = None
    reply: dict[str, Any] | None = None
    at: int = 0


class MockModel:
    """Serve ``steps`` to whoever calls, record everything, report what went wrong.

    Use as a context manager. ``base_url`` ends in ``/v1`` and ``api_key`` is random per
    instance; give both to the program as ``OPENAI_BASE_URL`` / ``OPENAI_API_KEY``.
    ``problems()`` lists unexpected requests and unused steps (call it after the run).
    ``port`` 0 (the default) takes a free ephemeral port; a fixed one raises ``OSError`` on
    entry when it is taken.
    """

    def __init__(self, steps: tuple[Step, ...], script_where: Location, port: int = 0) -> None:
        self.steps = steps
        self.script_where = script_where
        self._wanted_port = port
        self.api_key = "sk-mock-" + secrets.token_hex(8)
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._position = 0
        self._calls_made = 0
        self._unexpected: list[Problem] = []
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------
    def __enter__(self) -> "MockModel":
        handler = _handler_for(self)
        server = self._server = ThreadingHTTPServer(("127.0.0.1", self._wanted_port), handler)
        server.daemon_threads = True
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(target=self._serve, args=(server,), name="mock-model", daemon=True)
        self._thread.start()
        return self

    def _serve(self, server: ThreadingHTTPServer) -> None:
        # Our loop rather than serve_forever, which stops only at its next poll, so
        # every run waited for its mock to stop. This one also wakes when __exit__ writes.
        with selectors.DefaultSelector() as selector:
            selector.register(server, selectors.EVENT_READ)
            selector.register(self._wake_r, selectors.EVENT_READ)
            while True:
                if any(key.fileobj == self._wake_r for key, _ in selector.select()):
                    return
                server.handle_request()  # a connection is waiting: accept it, start its thread

    def __exit__(self, *exc: Any) -> None:
        if self._thread is not None:
            os.write(self._wake_w, b"x")
            self._thread.join(timeout=5)
            os.close(self._wake_r)
            os.close(self._wake_w)
        if self._server is not None:
            self._server.server_close()

    @property
    def port(self) -> int:
        assert self._server is not None, "MockModel is not started"
        return self._server.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # -- answering ---------------------------------------------------------------------------
    def answer(
        self, path: str, headers: dict[str, str], raw: bytes
    ) -> tuple[int, dict[str, Any] | list[dict[str, Any]]]:
        """Decide the HTTP status and body for one request, and record it. The body is a JSON
        object, or for a ``stream: true`` request the list of chunks to send as server-sent events."""
        at = time.monotonic_ns()
        with self._lock:
            index = len(self.requests)
            body: Any  # any JSON value, or None when there is none
            try:
                body = json.loads(raw.decode("utf-8")) if raw else None
            except (UnicodeDecodeError, json.JSONDecodeError):
                body = None
            messages_api = path.rstrip("/") == anthropic.MESSAGES_PATH
            if messages_api:
                body = anthropic.to_chat(body)
            elif path.rstrip("/") != CHAT_PATH:
                return self._refuse(
                    index,
                    path,
                    body,
                    ProviderRejection(
                        f"Invalid URL (POST {path}); this model serves POST {CHAT_PATH} and POST "
                        f"{anthropic.MESSAGES_PATH}",
                        status=404,
                    ),
                )
            key = headers.get("x-api-key") if messages_api else headers.get("authorization")
            if key != (self.api_key if messages_api else f"Bearer {self.api_key}"):
                return self._refuse(
                    index,
                    path,
                    body,
                    ProviderRejection("Incorrect API key provided.", status=401, type="invalid_api_key"),
                )
            if messages_api and isinstance(body, dict) and body.get("stream"):
                return self._refuse(index, path, body, ProviderRejection(anthropic.NO_STREAM))
            rejection = check_request(body)
            if rejection is not None:
                return self._refuse(index, path, body, rejection)
            if self._position >= len(self.steps):
                why = f"the script has {len(self.steps)} step(s) and all were used"
                return self._unexpected_request(index, path, body, None, why)
            step = self.steps[self._position]
            try:
                made = reply_for(step, body, self._calls_made + 1)
            except UnexpectedRequest as e:
                return self._unexpected_request(index, path, body, self._position, str(e))
            self._position += 1
            self._calls_made += len(made.message.get("tool_calls") or [])
            self.requests.append(RecordedRequest(index, path, body, 200, self._position - 1, reply=made.message, at=at))
            completion = _completion(index, body, made)
            if messages_api:
                return 200, anthropic.to_message(completion)
            if body.get("stream"):
                return 200, _chunks(completion, bool((body.get("stream_options") or {}).get("include_usage")))
            return 200, completion

    def _refuse(self, index: int, path: str, body: Any, rejection: ProviderRejection) -> tuple[int, dict[str, Any]]:
        self.requests.append(
            RecordedRequest(index, path, body, rejection.status, None, rejection.message, at=time.monotonic_ns())
        )
        if path.rstrip("/") == anthropic.MESSAGES_PATH:
            return rejection.status, anthropic.error_body(rejection.message, rejection.status)
        return rejection.status, rejection.body()

    def _unexpected_request(
        self, index: int, path: str, body: Any, step: int | None, why: str
    ) -> tuple[int, dict[str, Any]]:
        where = self.steps[step].where if step is not None else self.script_where
        position = f"step {step + 1} of {len(self.steps)}" if step is not None else "after the last step"
        self._unexpected.append(
            Problem(
                where,
                f"unexpected request #{index + 1} to the mock model at {position}: {why}",
                ("request messages: " + _summarise(body),),
            )
        )
        return self._refuse(index, path, body, ProviderRejection(f"mock model: unexpected request: {why}"))

    # -- reporting ---------------------------------------------------------------------------
    def problems(self) -> list[Problem]:
        """Unexpected requests, then steps the program never asked for."""
        out = list(self._unexpected)
        if self._position < len(self.steps):
            left = self.steps[self._position :]
            out.append(
                Problem(
                    left[0].where,
                    f"{len(left)} scripted step(s) were never requested, starting with: {left[0].describe()}",
                )
            )
        return out

    def chat_requests(self) -> list[RecordedRequest]:
        """Requests to the chat (or Messages) endpoint that carried a JSON body, in arrival
        order; a Messages request's body is in the chat-completions shape."""
        return [
            r
            for r in self.requests
            if r.path.rstrip("/") in (CHAT_PATH, anthropic.MESSAGES_PATH) and isinstance(r.body, dict)
        ]


def _completion(index: int, body: dict[str, Any], reply: Reply) -> dict[str, Any]:
    prompt_tokens = sum(len(json.dumps(m)) // 4 for m in body.get("messages", []))
    completion_tokens = len(json.dumps(reply.message)) // 4
    return {
        "id": f"chatcmpl-mock-{index + 1}",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model", "mock"),
        "choices": [{"index": 0, "message": reply.message, "finish_reason": reply.finish_reason}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def _chunks(completion: dict[str, Any], include_usage: bool) -> list[dict[str, Any]]:
    """The completion as OpenAI streams it: a role delta, content in two pieces, each tool call
    as a name delta then an arguments delta, a finish delta, and optionally a usage chunk."""
    choice = completion["choices"][0]
    message = choice["message"]
    deltas: list[dict[str, Any]] = [{"role": "assistant"}]
    content = message.get("content") or ""
    if content:
        half = len(content) // 2
        deltas += [{"content": piece} for piece in (content[:half], content[half:]) if piece]
    for i, call in enumerate(message.get("tool_calls") or []):
        deltas.append(
            {
                "tool_calls": [
                    {
                        "index": i,
                        "id": call["id"],
                        "type": "function",
                        "function": {"name": call["function"]["name"], "arguments": ""},
                    }
                ]
            }
        )
        deltas.append({"tool_calls": [{"index": i, "function": {"arguments": call["function"]["arguments"]}}]})
    base = {"id": completion["id"], "object": "chat.completion.chunk", "created": 0, "model": completion["model"]}
    chunks = [{**base, "choices": [{"index": 0, "delta": d, "finish_reason": None}]} for d in deltas]
    chunks.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}]})
    if include_usage:
        chunks.append({**base, "choices": [], "usage": completion["usage"]})
    return chunks


def _summarise(body: Any) -> str:
    if not isinstance(body, dict):
        return "(not a JSON object)"
    parts = []
    for m in body.get("messages", []):
        if not isinstance(m, dict):
            continue
        text = m.get("content")
        if m.get("tool_calls"):
            text = "calls " + ", ".join((c.get("function") or {}).get("name", "?") for c in m["tool_calls"])
        parts.append(f"{m.get('role')}: {str(text)[:80]!r}")
    return "; ".join(parts) or "(none)"


def _handler_for(model: MockModel) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out in separate writes; with Nagle's algorithm on, each response
        # waits for the client's delayed ACK. TCP_NODELAY removes that stall.
        disable_nagle_algorithm = True

        def do_POST(self) -> None:  # noqa: N802 — http.server's naming
            length = int(self.headers.get("Content-Length") or 0)
            self._send(*model.answer(self.path, self._headers(), self.rfile.read(length) if length else b""))

        def do_GET(self) -> None:  # noqa: N802 — answered (and recorded) as a wrong-path request
            self._send(*model.answer(self.path, self._headers(), b""))

        def _headers(self) -> dict[str, str]:
            return {k.lower(): v for k, v in self.headers.items()}

        def _send(self, status: int, payload: dict[str, Any] | list[dict[str, Any]]) -> None:
            if isinstance(payload, list):
                return self._send_events(payload)
            data = json.dumps(payload).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _send_events(self, chunks: list[dict[str, Any]]) -> None:
            data = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
            encoded = data.encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Length", str(len(encoded)))
            self.end_headers()
            self.wfile.write(encoded)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 — quiet: requests are recorded
            pass

    return Handler
