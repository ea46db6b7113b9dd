"""Observe toolnexus from outside a Python snippet, without a line of harness in the snippet.

The runner puts this folder first on ``PYTHONPATH`` and names a trace file in
``VERIFIED_DOCS_TRACE``. When (and only when) the snippet imports toolnexus, the real classes
are wrapped so that every tool execution, every ``wait_for`` call and every run's final status
is appended to the trace as one JSON line. Nothing is replaced: each wrapper calls the real
method and returns its result unchanged.

Events (SPEC §10 vocabulary); each also carries ``t`` (``time.monotonic_ns()``, one clock for
every process of the machine, so events merge in order with the mock model's requests) and
``pid`` (a snippet may start processes of its own that trace too):
  {"event": "run_start", "via": "run"|"stream", "prompt", "history": int|None}  (a run begins;
   history: the messages passed in, None for stream, which may load them from its store)
  {"event": "tool_start", "tool", "args"}                 (before a tool executes)
  {"event": "tool_execute", "tool", "args", "answer": Answer|None, "answer_data_read": bool,
   "output", "is_error", "pending": Request|None}
  {"event": "wait_for", "request": Request}              (before the host's callback runs)
  {"event": "wait_for_answered", "request_id", "answer": Answer|None}
  {"event": "stream_pending", "request": Request}        (a streamed {type: "pending"} event)
  {"event": "run_end", "status", "pending": Request|None, "text"}   (from run() and stream())
  {"event": "metric_tool", "tool", "is_error", "pending": bool}    (each §8 "tool" metric event)
  {"event": "imports", "files": [...]}   (at exit: modules loaded from outside the interpreter)
  {"event": "slept", "seconds": float, "calls": int}   (at exit: what time.sleep and asyncio.sleep
   were asked for in this process, the program's sleeps and toolnexus's own polling alike)
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.abc
import inspect
import json
import os
import sys
import time

_TRACE = os.environ.get("VERIFIED_DOCS_TRACE")


def start_trace(path: str | None) -> None:
    """Send events to ``path`` from now on: the fork server's child names its own trace file,
    since this module was loaded once, in the worker it was forked from. At exit, the files of
    the modules the program loaded from outside the interpreter's own folders are recorded
    (``{"event": "imports", "files": [...]}``), so a cached verdict can depend on them."""
    global _TRACE
    _TRACE = path
    _SLEPT.update(seconds=0.0, calls=0)  # a forked child starts its own count
    if path:
        import atexit

        atexit.register(_emit_imports)
        atexit.register(_emit_slept)


def start_coverage(env) -> None:
    """Measure the scenario's own files with coverage.py when ``env`` names them
    (``VERIFIED_DOCS_COVERAGE``: data file prefix; ``VERIFIED_DOCS_COVERAGE_FILES``: paths
    joined by os.pathsep; see verified_docs.run.line_coverage, which reads the data). Each
    process saves its own ``prefix.<suffix>`` at exit."""
    prefix, files = env.get("VERIFIED_DOCS_COVERAGE"), env.get("VERIFIED_DOCS_COVERAGE_FILES")
    if not prefix or not files:
        return
    import atexit

    import coverage

    cov = coverage.Coverage(
        data_file=prefix, data_suffix=True, include=files.split(os.pathsep), config_file=False, branch=False
    )
    cov.start()

    def save() -> None:
        cov.stop()
        cov.save()

    atexit.register(save)


# Module file -> its real path, or None when it is not a file or lies inside the interpreter's own
# folders. Filled by warm() in the fork server's worker for the ~680 modules it preloads, so a
# child resolves only the modules its program adds (resolving all of them took 11 ms per run).
_REAL_FILES: dict[str, str | None] = {}


def _outside_file(file: str, own: tuple[str, ...]) -> str | None:
    if file not in _REAL_FILES:
        real = os.path.realpath(file) if os.path.isfile(file) else None
        _REAL_FILES[file] = real if real and not real.startswith(own) else None
    return _REAL_FILES[file]


def _own_folders() -> tuple[str, ...]:
    return tuple(os.path.realpath(p) + os.sep for p in {sys.prefix, sys.base_prefix, os.path.dirname(__file__)})


def _module_files() -> list[str]:
    return [f for f in (getattr(m, "__file__", None) for m in list(sys.modules.values())) if isinstance(f, str)]


def _emit_imports() -> None:
    own = _own_folders()
    files = {real for real in (_outside_file(f, own) for f in _module_files()) if real}
    _emit({"event": "imports", "files": sorted(files)})


def warm() -> None:
    """In the fork server's worker, once its modules are imported and before it forks: do the
    work each child would otherwise repeat on the modules it inherits. Resolves their files for
    the ``imports`` event, and fills ``inspect``'s module-to-file map, which coverage.py builds
    on its first ``inspect.stack()`` (its collector calls it at start: 34 ms per run)."""
    own = _own_folders()
    for file in _module_files():
        _outside_file(file, own)
    inspect.stack()


# Sleeps are counted from what was asked for, not timed: the seconds asked for are the same on a
# loaded machine, so the build's limit on them (verify.SLEEP_LIMIT_S) cannot flake. An asyncio
# sleep cut short by a cancellation counts only the time it lasted (`sleep(inf)` is a wait for
# a cancel). Only sleeps called from the scenario's own code and from toolnexus count: a server
# the program starts (uvicorn's loop wakes every 0.1 s) idles on its own time, not the example's.
_SLEPT = {"seconds": 0.0, "calls": 0}
_STDLIB = os.path.realpath(os.path.dirname(os.__file__)) + os.sep
_WHERE: dict[str, str] = {}


def _kind(file: str) -> str:
    """ "stdlib", "toolnexus", "package" (another installed one) or "own" (the example's)."""
    kind = _WHERE.get(file)
    if kind is None:
        real = os.path.realpath(file)
        installed = f"{os.sep}site-packages{os.sep}" in real or f"{os.sep}dist-packages{os.sep}" in real
        if installed:
            kind = "toolnexus" if f"{os.sep}toolnexus{os.sep}" in real else "package"
        else:
            kind = "stdlib" if real.startswith(_STDLIB) else "own"
        _WHERE[file] = kind
    return kind


def _counts(frame) -> bool:
    """Whether a sleep called from ``frame`` is the example's: the first caller outside the
    standard library (past asyncio's own frames, to whoever runs the loop or awaits) is the
    scenario's code or toolnexus."""
    while frame is not None:
        kind = _kind(frame.f_code.co_filename)
        if kind != "stdlib":
            return kind != "package"
        frame = frame.f_back
    return True


def _count_sleep(seconds) -> None:
    try:
        _SLEPT["seconds"] += max(0.0, float(seconds))
    except (TypeError, ValueError):
        pass  # the real sleep raises its own error for a bad argument
    _SLEPT["calls"] += 1


def _counting_time_sleep(real):
    @functools.wraps(real)
    def sleep(seconds):
        if _counts(sys._getframe(1)):
            _count_sleep(seconds)
        return real(seconds)

    return sleep


def _patch_asyncio_tasks(module) -> None:
    # Patched where it is defined, before `asyncio/__init__` re-exports it, so `asyncio.sleep`
    # and `from asyncio import sleep` both count.
    real = module.sleep

    @functools.wraps(real)
    async def sleep(delay, result=None):
        if not _counts(sys._getframe(1)):
            return await real(delay, result)
        start = time.monotonic()
        try:
            value = await real(delay, result)
        except BaseException:
            _count_sleep(min(float(delay), time.monotonic() - start))
            raise
        _count_sleep(delay)
        return value

    module.sleep = sleep


def _emit_slept() -> None:
    _emit({"event": "slept", "seconds": round(_SLEPT["seconds"], 6), "calls": _SLEPT["calls"]})


def _plain(value):
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return repr(value)


def _emit(event: dict) -> None:
    event = {**event, "t": time.monotonic_ns(), "pid": os.getpid()}
    with open(_TRACE, "a", encoding="utf-8") as f:
        f.write(json.dumps(event, default=_plain) + "\n")


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


def _patch_toolkit(module) -> None:
    real = module.Toolkit.execute

    @functools.wraps(real)
    async def execute(self, name, args=None, ctx=None):
        answer = getattr(ctx, "answer", None)
        watched = None
        if answer is not None and isinstance(answer.data, dict):
            # Same values, same types: only reads of ctx.answer.data are noted. In the harness's
            # reply pass, each reply the tool receives is swapped for a fresh value first.
            swap = json.loads(os.environ.get("VERIFIED_DOCS_REPLY_SWAP") or "{}")
            data = _swapped(answer.data, swap) if swap else answer.data
            watched = _ReadRecordingDict(data)
            answer = dataclasses.replace(answer, data=data)
            ctx = dataclasses.replace(ctx, answer=dataclasses.replace(answer, data=watched))
        # Before the tool runs: what it does meanwhile (an MCP elicitation's wait_for) comes after.
        _emit({"event": "tool_start", "tool": name, "args": args or {}})
        result = await real(self, name, args, ctx)
        meta = result.metadata or {}
        _emit(
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
        _emit({"event": "wait_for", "request": request})
        answer = fn(request)
        if inspect.isawaitable(answer):
            answer = await answer
        _emit({"event": "wait_for_answered", "request_id": request.id, "answer": answer})
        return answer

    wait_for.__verified_docs_traced__ = True
    return wait_for


def _patch_client(module) -> None:
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
        _emit({"event": "run_start", "via": "run", "prompt": _prompt_text(prompt), "history": len(history or [])})
        result = await real_run(self, prompt, *args, **kwargs)
        _emit({"event": "run_end", "status": result.status, "pending": result.pending, "text": result.text})
        return result

    cls.run = run
    real_stream = cls.stream

    @functools.wraps(real_stream)
    async def stream(self, prompt, *args, **kwargs):
        _emit({"event": "run_start", "via": "stream", "prompt": _prompt_text(prompt), "history": None})
        async for event in real_stream(self, prompt, *args, **kwargs):
            if event.get("type") == "pending":
                _emit({"event": "stream_pending", "request": event.get("request")})
            elif event.get("type") == "done":
                result = event["result"]
                _emit({"event": "run_end", "status": result.status, "pending": result.pending, "text": result.text})
            yield event

    cls.stream = stream
    real_emit = cls._emit

    @functools.wraps(real_emit)
    def emit(self, ev):
        if isinstance(ev, dict) and ev.get("event") == "tool":
            _emit(
                {
                    "event": "metric_tool",
                    "tool": ev.get("tool"),
                    "is_error": ev.get("is_error"),
                    "pending": bool(ev.get("pending")),
                }
            )
        return real_emit(self, ev)

    cls._emit = emit


_PATCHES = {
    "toolnexus.toolkit": _patch_toolkit,
    "toolnexus.client": _patch_client,
    "asyncio.tasks": _patch_asyncio_tasks,
}


class _PatchingLoader(importlib.abc.Loader):
    def __init__(self, real, patch):
        self._real, self._patch = real, patch

    def create_module(self, spec):
        return self._real.create_module(spec)

    def exec_module(self, module):
        self._real.exec_module(module)
        self._patch(module)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name not in _PATCHES:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = _PatchingLoader(spec.loader, _PATCHES[name])
                return spec
        return None


if _TRACE:
    sys.meta_path.insert(0, _Finder())
    time.sleep = _counting_time_sleep(time.sleep)
    if "asyncio.tasks" in sys.modules:  # imported before this file ran (not on CPython 3.11)
        _patch_asyncio_tasks(sys.modules["asyncio.tasks"])
        sys.modules["asyncio"].sleep = sys.modules["asyncio.tasks"].sleep
    if _TRACE != os.devnull:  # the fork server's worker traces nothing itself
        start_trace(_TRACE)
        start_coverage(os.environ)


# Snippets run offline: only loopback is reachable (the mock model, local servers of their own).
# Anything else fails at once with a message the runner recognises, before a packet leaves.
OFFLINE_MARK = "verified_docs: offline:"
_LOOPBACK = {"127.0.0.1", "::1", "localhost", "", None}


def _refuse_remote(host) -> None:
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if host in _LOOPBACK or (isinstance(host, str) and host.startswith("127.")):
        return
    raise ConnectionRefusedError(
        f"{OFFLINE_MARK} this snippet tried to reach {host!r}; snippets may only talk to the mock model on 127.0.0.1"
    )


def _go_offline() -> None:
    import socket

    real_connect, real_connect_ex, real_getaddrinfo = (
        socket.socket.connect,
        socket.socket.connect_ex,
        socket.getaddrinfo,
    )

    def connect(self, address):
        if self.family in (socket.AF_INET, socket.AF_INET6):
            _refuse_remote(address[0])
        return real_connect(self, address)

    def connect_ex(self, address):
        if self.family in (socket.AF_INET, socket.AF_INET6):
            _refuse_remote(address[0])
        return real_connect_ex(self, address)

    def getaddrinfo(host, *args, **kwargs):
        _refuse_remote(host)
        return real_getaddrinfo(host, *args, **kwargs)

    socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo = connect, connect_ex, getaddrinfo


if _TRACE:
    _go_offline()

# Shortly before the runner's timeout kills the process, dump every thread's stack to stderr,
# so a hanging snippet's verdict can name the line it was stuck on.
_TIMEOUT = os.environ.get("VERIFIED_DOCS_TIMEOUT")
if _TIMEOUT:
    import faulthandler

    faulthandler.dump_traceback_later(max(float(_TIMEOUT) - 0.4, float(_TIMEOUT) * 0.8), exit=False)
