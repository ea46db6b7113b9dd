"""The wrappers around toolnexus that record what it did: each tool execution (with the
``ctx.answer`` it got and whether it read its data), each ``wait_for`` call and answer, each
run's start and end, and each "tool" metric event.

A top-level module of the tracer's folder (imported by ``sitecustomize``, which applies
:func:`patch_toolkit` and :func:`patch_client` as toolnexus's modules are imported; never
imported from the ``verified_docs`` package). Nothing is replaced: each wrapper calls the real
method and returns its result unchanged.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import json
import os
from typing import Any

from verified_docs_trace import emit


def _prompt_text(prompt) -> str:
    """A run's prompt as text: a string as it is, content parts by their text."""
    if isinstance(prompt, str):
        return prompt
    if isinstance(prompt, list):
        return " ".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in prompt)
    return repr(prompt)


class _ReadRecordingDict(dict):
    """``Answer.data`` as the tool sees it: a real dict that notes whether it was read."""

    def _note(self):
        self.__dict__["was_read"] = True

    def __getitem__(self, key):
        self._note()
        return super().__getitem__(key)

    def get(self, key, default=None):
        self._note()
        return super().get(key, default)

    def __contains__(self, key):
        self._note()
        return super().__contains__(key)

    def __iter__(self):
        self._note()
        return super().__iter__()

    def keys(self):
        self._note()
        return super().keys()

    def values(self):
        self._note()
        return super().values()

    def items(self):
        self._note()
        return super().items()


def _swapped(value, swap: dict):
    """``value`` with every string equal to a key of ``swap`` replaced by its value, deep."""
    if isinstance(value, str):
        return swap.get(value, value)
    if isinstance(value, dict):
        return {k: _swapped(v, swap) for k, v in value.items()}
    if isinstance(value, list):
        return [_swapped(v, swap) for v in value]
    return value


def patch_toolkit(module: Any) -> None:
    """Wrap ``module`` (``toolnexus.toolkit``)'s ``Toolkit.execute`` and the ``wait_for`` that
    ``Toolkit.create`` is given."""
    real = module.Toolkit.execute

    @functools.wraps(real)
    async def execute(self, name, args=None, ctx=None):
        answer = getattr(ctx, "answer", None)
        watched = None
        # getattr: the loop hands the tool any object with an ok attribute, not only an
        # Answer, and the tracer must not fail where toolnexus does not.
        if answer is not None and isinstance(getattr(answer, "data", None), dict):
            # Same values, same types: only reads of ctx.answer.data are noted. In the harness's
            # reply pass, each reply the tool receives is swapped for a fresh value first.
            swap = json.loads(os.environ.get("VERIFIED_DOCS_REPLY_SWAP") or "{}")
            data = _swapped(answer.data, swap) if swap else answer.data
            watched = _ReadRecordingDict(data)
            answer = dataclasses.replace(answer, data=data)
            ctx = dataclasses.replace(ctx, answer=dataclasses.replace(answer, data=watched))
        # Before the tool runs: what it does meanwhile (an MCP elicitation's wait_for) comes after.
        emit({"event": "tool_start", "tool": name, "args": args or {}})
        result = await real(self, name, args, ctx)
        meta = result.metadata or {}
        emit(
            {
                "event": "tool_execute",
                "tool": name,
                "args": args or {},
                "answer": answer,
                "answer_data_read": bool(watched is not None and watched.__dict__.get("was_read")),
                "output": result.output,
                "is_error": result.is_error,
                "pending": meta.get("pending"),
            }
        )
        return result

    module.Toolkit.execute = execute
    # The toolkit's own wait_for answers MCP elicitations; count those calls too.
    real_create = module.Toolkit.create.__func__

    @functools.wraps(real_create)
    async def create(cls, *args, **kwargs):
        if kwargs.get("wait_for") is not None:
            kwargs["wait_for"] = _traced_wait_for(kwargs["wait_for"])
        return await real_create(cls, *args, **kwargs)

    module.Toolkit.create = classmethod(create)


def _traced_wait_for(fn):
    if fn is None or getattr(fn, "__verified_docs_traced__", False):
        return fn

    @functools.wraps(fn)
    async def wait_for(request):
        # Recorded before the call, so a wait_for that raises still counts as called.
        emit({"event": "wait_for", "request": request})
        answer = fn(request)
        if inspect.isawaitable(answer):
            answer = await answer
        emit({"event": "wait_for_answered", "request_id": request.id, "answer": answer})
        return answer

    wait_for.__verified_docs_traced__ = True
    return wait_for


def patch_client(module: Any) -> None:
    """Wrap ``module`` (``toolnexus.client``)'s ``Client``: the ``wait_for`` it is given, its
    ``run`` and ``stream``, and the metric events it emits."""
    cls = module.Client

    def get_wait_for(self):
        return self.__dict__.get("_verified_docs_wait_for")

    def set_wait_for(self, fn):
        self.__dict__["_verified_docs_wait_for"] = _traced_wait_for(fn)

    cls.wait_for = property(get_wait_for, set_wait_for)
    real_run = cls.run

    @functools.wraps(real_run)
    async def run(self, prompt, *args, **kwargs):
        history = kwargs.get("history", args[1] if len(args) > 1 else None)
        emit({"event": "run_start", "via": "run", "prompt": _prompt_text(prompt), "history": len(history or [])})
        result = await real_run(self, prompt, *args, **kwargs)
        emit({"event": "run_end", "status": result.status, "pending": result.pending, "text": result.text})
        return result

    cls.run = run
    real_stream = cls.stream

    @functools.wraps(real_stream)
    async def stream(self, prompt, *args, **kwargs):
        emit({"event": "run_start", "via": "stream", "prompt": _prompt_text(prompt), "history": None})
        async for event in real_stream(self, prompt, *args, **kwargs):
            if event.get("type") == "pending":
                emit({"event": "stream_pending", "request": event.get("request")})
            elif event.get("type") == "done":
                result = event["result"]
                emit({"event": "run_end", "status": result.status, "pending": result.pending, "text": result.text})
            yield event

    cls.stream = stream
    real_emit = cls._emit

    @functools.wraps(real_emit)
    def emit_event(self, ev):
        if isinstance(ev, dict) and ev.get("event") == "tool":
            emit(
                {
                    "event": "metric_tool",
                    "tool": ev.get("tool"),
                    "is_error": ev.get("is_error"),
                    "pending": bool(ev.get("pending")),
                }
            )
        return real_emit(self, ev)

    cls._emit = emit_event
