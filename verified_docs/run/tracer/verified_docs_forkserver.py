"""The warm worker: imports toolnexus once, then forks a fresh process for every snippet.

Started by ``verified_docs.run.forkserver`` as ``python verified_docs_forkserver.py SOCKET`` (a path,
relative to its working directory, its own folder, so that a long TMPDIR cannot make it too long)
with this folder on ``PYTHONPATH``, so ``sitecustomize`` (the tracer and the offline guard) is
already loaded and the toolnexus classes it wraps are imported through it.

Why forking, not threads or one interpreter for all: each snippet must start from the state a
fresh ``python snippet.py`` would have after ``import toolnexus``: no event loop, module
globals, environment, working directory or threads left by an earlier snippet. A child forked
from a worker that never runs snippet code has exactly that state, without paying the import.

Protocol, one Unix-socket connection per snippet:
  runner -> worker   one JSON line {"program", "args", "cwd", "env", "timeout_s"}, with the
                     write ends of the stdout and stderr pipes attached (SCM_RIGHTS)
  worker -> runner   {"pid": N}           the snippet's process, also its process group
  worker -> runner   {"exit_code": N, "own_s": F, "escaped": [pid]}   after it exits;
                     ``exit_code`` is negative for a signal, ``own_s`` is wall seconds from the
                     snippet's first line to exit, ``escaped`` the processes it left running
                     outside its process group (killed)

Per connection the worker forks a supervisor, which forks the snippet process and waits for it;
the worker itself stays single-threaded (forking a threaded process is unsafe) and never blocks
on a supervisor: it reaps the ones that have exited whenever it wakes, and the rest when it stops.
A program with a file beside it named like a module the worker already imported (``secrets.py``,
``html.py``) would import a different module here than under ``python program``: that child
execs a fresh interpreter instead, keeping everything else (group, stdio, env, cwd).
"""

from __future__ import annotations

import atexit
import builtins
import ctypes
import faulthandler
import gc
import glob
import importlib
import importlib.machinery
import io
import json
import os
import pkgutil
import select
import signal
import socket
import struct
import sys
import threading
import time
import traceback
import types

import sitecustomize  # the tracer, loaded at start-up from PYTHONPATH; each snippet names its own trace file

MAX_REQUEST_BYTES = 1 << 20


def _preload() -> None:
    """Import toolnexus and its submodules (through the tracer's patches) plus asyncio.

    A module that fails to import is left out: the snippet that needs it imports it itself and
    fails the same way a fresh interpreter would.
    """
    import asyncio  # noqa: F401 -- every snippet uses it

    try:  # every snippet's lines are measured (see sitecustomize.start_coverage)
        import coverage  # noqa: F401
    except ImportError:
        pass

    try:
        toolnexus = importlib.import_module("toolnexus")
    except Exception:  # noqa: BLE001 -- see docstring
        return
    for info in pkgutil.iter_modules(toolnexus.__path__, "toolnexus."):
        try:
            importlib.import_module(info.name)
        except Exception:  # noqa: BLE001
            pass


def _read_request(conn: socket.socket) -> tuple[dict, list[int]]:
    data, fds, _, _ = socket.recv_fds(conn, 65536, 2)
    while not data.endswith(b"\n"):
        if len(data) > MAX_REQUEST_BYTES:
            raise ValueError("request too large")
        more = conn.recv(65536)
        if not more:
            raise ValueError("connection closed mid-request")
        data += more
    return json.loads(data), list(fds)


def _send(conn: socket.socket, message: dict) -> None:
    conn.sendall(json.dumps(message).encode() + b"\n")


def _text_stream(fd: int, mode: str, errors: str) -> io.TextIOWrapper:
    raw = io.FileIO(fd, mode, closefd=False)
    if mode == "r":
        return io.TextIOWrapper(io.BufferedReader(raw), encoding="utf-8", errors=errors)
    # As under PYTHONUNBUFFERED: each write reaches the pipe at once.
    return io.TextIOWrapper(raw, encoding="utf-8", errors=errors, write_through=True)


def _print_uncaught(exc: BaseException, program: str) -> None:
    """Print ``exc`` as the interpreter would for ``python program``: from the snippet's frame
    down, leaving out this worker's frames above it."""
    tb = exc.__traceback__
    while tb is not None and os.path.abspath(tb.tb_frame.f_code.co_filename) != program:
        tb = tb.tb_next
    traceback.print_exception(type(exc), exc, tb, file=sys.stderr)
    sys.stderr.flush()


def _become_snippet(
    request: dict, fds: list[int], started_w: int, conn: socket.socket, listener: socket.socket
) -> None:
    """In the forked child: take on the snippet's process group, stdio, cwd, environment, argv
    and trace file, then run it as ``__main__``. Never returns (see :func:`_exit_like_python`)."""
    os.setsid()  # its own process group, which the runner kills on timeout
    conn.close()
    listener.close()
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(fds[0], 1)
    os.dup2(fds[1], 2)
    for fd in (devnull, *fds):
        os.close(fd)
    sys.stdin, sys.stdout, sys.stderr = (
        _text_stream(0, "r", "strict"),
        _text_stream(1, "w", "strict"),
        _text_stream(2, "w", "backslashreplace"),
    )
    # As in a fresh interpreter, the original streams are these too (typeshed marks them Final).
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = sys.stdin, sys.stdout, sys.stderr  # type: ignore[misc]
    program = os.path.abspath(request["program"])
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = [program, *request["args"]]
    sys.path[0] = os.path.dirname(program)  # as `python program` puts the script's folder first
    if _shadowed_modules(os.path.dirname(program)):
        # A file beside the program has the name of a module this worker already imported;
        # `python program` would import that file instead, so start exactly that, fresh.
        os.write(started_w, struct.pack("d", time.monotonic()))
        os.close(started_w)
        os.execv(sys.executable, [sys.executable, program, *request["args"]])
    sitecustomize.start_trace(request["env"].get("VERIFIED_DOCS_TRACE"))
    sitecustomize.start_coverage(request["env"])
    # The kill comes at the runner's deadline, counted from before the fork: under load the fork
    # and the setup above took 0.27 s of a 3 s timeout, and a dump due 0.4 s before the kill by
    # the child's own clock came too late to be written.
    left = float(request["deadline"]) - time.monotonic()
    faulthandler.dump_traceback_later(max(left - 0.4, left * 0.8, 0.001), exit=False, file=sys.stderr)
    os.write(started_w, struct.pack("d", time.monotonic()))
    os.close(started_w)
    try:
        _run_as_main(program)
        code = 0
    except SystemExit as exc:
        code = _exit_code(exc)
    except BaseException as exc:  # noqa: BLE001 -- an uncaught exception ends the program with 1
        _print_uncaught(exc, program)
        code = 1
    _exit_like_python(code)


# Imported at start-up, before the program's folder is on sys.path: usercustomize, and
# sitecustomize with the other modules of the tracer's folder (this one's).
_NOT_SHADOWED_BY_THE_PROGRAMS_FOLDER = {"usercustomize"} | {
    name.removesuffix(".py") for name in os.listdir(os.path.dirname(os.path.abspath(__file__))) if name.endswith(".py")
}


def _shadowed_modules(folder: str) -> list[str]:
    """Modules already imported here that a module or package in ``folder`` would shadow for
    ``python program`` (whose folder comes first on sys.path): built-in and frozen modules are
    found before any folder, so they cannot be shadowed."""
    names = set()
    for entry in os.scandir(folder):
        if entry.is_dir():
            if os.path.isfile(os.path.join(entry.path, "__init__.py")):
                names.add(entry.name)
        elif entry.name.endswith((".py", ".pyc", ".so", ".pyd")):
            names.add(entry.name.split(".")[0])
    loaded = {name.partition(".")[0] for name in sys.modules}
    return sorted(
        name
        for name in names & loaded - _NOT_SHADOWED_BY_THE_PROGRAMS_FOLDER
        if getattr(getattr(sys.modules.get(name), "__spec__", None), "origin", None) not in ("built-in", "frozen")
    )


def _run_as_main(program: str) -> None:
    """Run ``program`` as ``python program`` does: compiled from its bytes (so a coding cookie
    counts) into a fresh ``__main__`` module that stays ``sys.modules["__main__"]`` until exit,
    for its atexit callbacks and threads too (``runpy.run_path`` would restore the worker's).
    As CPython does, ``__file__`` is removed again once the program's code has finished
    (unless it ended through SystemExit, which exits before that step)."""
    main = types.ModuleType("__main__")
    main.__dict__.update(
        __file__=program,
        __annotations__={},
        __builtins__=builtins,
        __loader__=importlib.machinery.SourceFileLoader("__main__", program),
    )
    sys.modules["__main__"] = main
    with io.open_code(program) as f:
        code = compile(f.read(), program, "exec", dont_inherit=True)
    try:
        exec(code, main.__dict__)
    except SystemExit:
        raise
    except BaseException:
        main.__dict__.pop("__file__", None)
        raise
    main.__dict__.pop("__file__", None)


def _exit_code(exc: SystemExit) -> int:
    """The exit status the interpreter gives ``SystemExit(code)``; a message is printed, as it does."""
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code & 0xFF
    print(exc.code, file=sys.stderr)
    return 1


def _exit_like_python(code: int) -> None:
    """End the snippet's process the way the interpreter's shutdown does, in the same order, in
    what a program can observe: wait for its non-daemon threads, run its atexit callbacks, flush
    its streams. Then leave with ``os._exit``, skipping the teardown of every imported module,
    which is not the snippet's work (its output is already out)."""
    shutdown_threads = getattr(threading, "_shutdown", None)  # what Py_FinalizeEx calls first
    if shutdown_threads is not None:
        shutdown_threads()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = code or 120  # as CPython when flushing stdout fails at exit
    os._exit(code)


def _supervise(conn: socket.socket, listener: socket.socket) -> None:
    """In the supervisor (a child of the worker): fork the snippet, report its pid, wait for it,
    report its exit. Exits with ``os._exit`` so nothing of the worker's runs twice."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # as the worker has it: waitpid needs it
    _become_subreaper()
    request, fds = _read_request(conn)
    started_r, started_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(started_r)
        _become_snippet(request, fds, started_w, conn, listener)
    os.close(started_w)
    for fd in fds:
        os.close(fd)
    listener.close()
    _send(conn, {"pid": pid})
    started = os.read(started_r, 8)
    status = _wait_or_orphaned(pid, conn)
    ended = time.monotonic()
    own = ended - struct.unpack("d", started)[0] if len(started) == 8 else 0.0
    escaped = _end_orphans(group=pid)
    _send(conn, {"exit_code": os.waitstatus_to_exitcode(status), "own_s": own, "escaped": escaped})
    os._exit(0)


def _wait_or_orphaned(pid: int, conn: socket.socket) -> int:
    """Wait for the snippet ``pid`` and return its wait status; if the runner's end of ``conn``
    closes first (the runner was killed: nobody is left to enforce the timeout), kill the
    snippet's process group and what it left behind, and exit: a killed build leaves no snippet
    running (and writing into its temporary folder)."""
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):  # no pidfd (Linux before 5.3): wait as before
        return os.waitpid(pid, 0)[1]
    watched: list[int | socket.socket] = [pidfd, conn]
    while True:
        readable, _, _ = select.select(watched, [], [])
        if pidfd in readable:
            os.close(pidfd)
            return os.waitpid(pid, 0)[1]
        if not conn.recv(1):  # the runner's end closed: it died, or gave up on this snippet
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
            _end_orphans(group=pid)
            os._exit(0)


def _become_subreaper() -> None:
    """Adopt every process the snippet leaves behind (Linux PR_SET_CHILD_SUBREAPER): one that
    left its process group and closed its output would otherwise outlive the run unseen."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # 36: PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


def _children() -> list[tuple[int, str, int]]:
    """(pid, state, process group) of each process whose parent is this one, from /proc: the
    kernel's list of this (single-threaded) process's children where it keeps one, else a scan
    of every process's stat."""
    me = os.getpid()
    try:
        with open(f"/proc/{me}/task/{me}/children", encoding="ascii") as f:
            stats = [f"/proc/{pid}/stat" for pid in f.read().split()]
    except OSError:
        stats = glob.glob("/proc/[0-9]*/stat")
    found = []
    for stat in stats:
        try:
            with open(stat, encoding="ascii", errors="replace") as f:
                fields = f.read().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[1]) == me:
            found.append((int(stat.split("/")[2]), fields[0], int(fields[2])))
    return found


def _end_orphans(group: int) -> list[int]:
    """Kill and reap every process left behind after the snippet ended; return the pids of
    those still running outside the snippet's process group (the ones the runner's group
    kill could not reach). Each killed orphan's own children are adopted in turn."""
    escaped: list[int] = []
    for _ in range(100):
        orphans = _children()
        if not orphans:
            break
        for pid, state, pgid in orphans:
            if state != "Z" and pgid != group:
                escaped.append(pid)
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
    return sorted(set(escaped))


STOP_REAP_S = 2.0  # at stop, how long to wait for supervisors still finishing (they exit right after the snippet)


def _reap_supervisors(wait_s: float = 0.0) -> None:
    """Reap the supervisors that have exited, waiting up to ``wait_s`` seconds for the others.

    The worker reaps them itself rather than ignore SIGCHLD: Linux drops the resource usage of
    children the kernel reaps, so the snippets' CPU time (each supervisor waited for its own)
    would vanish from what the runner's ``wait`` and ``getrusage(RUSAGE_CHILDREN)`` report, and
    ``nox -s bench`` measures a pass's CPU time that way."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return  # none left
        if pid == 0:
            if time.monotonic() >= deadline:
                return
            time.sleep(0.01)


def main(socket_path: str) -> None:
    _preload()
    sitecustomize.warm()
    # Move everything imported so far out of the collector's reach, as gc.freeze's documentation
    # advises before forking: a child's full collection would otherwise walk (and so copy, page by
    # page) every object it inherited, time a fresh `python program` never spends.
    gc.freeze()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(socket_path)
    listener.listen(128)
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    while True:
        readable, _, _ = select.select([listener, sys.stdin], [], [])
        _reap_supervisors()
        if sys.stdin in readable and not os.read(sys.stdin.fileno(), 1):
            _reap_supervisors(wait_s=STOP_REAP_S)
            return  # the runner closed our stdin (or died): stop
        if listener in readable:
            conn, _ = listener.accept()
            if os.fork() == 0:
                _supervise(conn, listener)
            conn.close()


if __name__ == "__main__":
    main(sys.argv[1])
