"""The warm fork server: each snippet starts as clean as a cold `python snippet.py` would.

Probe programs run under both starters (a cold interpreter and a child of the warm worker) must
see the same process state and leave the same exit code and output; a program that pollutes
its process (module globals, environment, event loop, threads, cwd) must leave nothing for the
next one.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import gone
from verified_docs.run.forkserver import ForkServer, ForkServerError
from verified_docs.run.languages import PYTHON, environment, worker_environment
from verified_docs.run.process import MAX_CAPTURE_BYTES, Completed, run_process


@pytest.fixture(scope="module")
def server():
    worker = ForkServer(worker_environment())
    yield worker
    worker.close()


def write(tmp_path: Path, name: str, source: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


def start(how: str, server: ForkServer, program: Path, tmp_path: Path, *args: str, timeout_s: float = 30) -> Completed:
    workdir = tmp_path / "work"
    workdir.mkdir(exist_ok=True)
    env = environment(
        base_url="http://127.0.0.1:9/v1",
        api_key="sk-test",
        trace_path=workdir / "trace.jsonl",
        workdir=workdir,
        timeout_s=timeout_s,
    )
    if how == "warm":
        return server.run(program, args, cwd=workdir, env=env, timeout_s=timeout_s)
    return run_process(PYTHON.command(program, args), cwd=workdir, env=env, timeout_s=timeout_s)


PROBE = """
    import asyncio, json, os, sys, threading
    import helper  # a module beside the program, found as `python program.py` finds it
    print(json.dumps({
        "name": __name__, "file": __file__, "argv": sys.argv, "path0": sys.path[0], "cwd": os.getcwd(),
        "env": sorted(os.environ), "stdin": sys.stdin.read(), "encoding": sys.stdout.encoding,
        "hash": hash("suspension"), "threads": threading.active_count(), "helper": helper.VALUE,
        "loop": asyncio.get_event_loop_policy()._local._loop, "main_module": sys.modules["__main__"].__dict__ is globals(),
    }, default=repr))
"""


@pytest.mark.parametrize("how", ["cold", "warm"])
def test_a_program_sees_the_process_state_a_cold_interpreter_gives(
    how: str, server: ForkServer, tmp_path: Path
) -> None:
    program = write(tmp_path, "probe.py", PROBE)
    write(tmp_path, "helper.py", "VALUE = 'beside'\n")
    done = start(how, server, program, tmp_path, "--flag", "x y")
    assert done.exit_code == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen == {
        "name": "__main__",
        "file": str(program),
        "argv": [str(program), "--flag", "x y"],
        "path0": str(tmp_path),
        "cwd": str(tmp_path / "work"),
        "env": sorted(environment(base_url="", api_key="", trace_path=Path("t"), workdir=tmp_path, timeout_s=1)),
        "stdin": "",
        "encoding": "utf-8",
        "hash": seen["hash"],
        "threads": 1,
        "helper": "beside",
        "loop": None,
        "main_module": True,
    }
    assert seen["hash"] == hash_under_seed_zero()


def hash_under_seed_zero() -> int:
    fresh = run_process(
        [sys.executable, "-c", "print(hash('suspension'))"], cwd=Path("/"), env={"PYTHONHASHSEED": "0"}, timeout_s=30
    )
    return int(fresh.stdout)


POLLUTER = """
    import asyncio, os, sys, threading, time, types
    import toolnexus
    toolnexus.POISON = "left by the previous snippet"
    os.environ["LEAKED"] = "1"
    os.chdir("/")
    sys.modules["leaked_module"] = types.ModuleType("leaked_module")
    sys.path.insert(0, "/leaked")
    asyncio.set_event_loop(asyncio.new_event_loop())
    threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
    print("polluted", threading.active_count())
"""

CHECKER = """
    import asyncio, os, sys, threading
    import toolnexus
    print(hasattr(toolnexus, "POISON"), "LEAKED" in os.environ, os.getcwd() == os.environ["HOME"],
          "leaked_module" in sys.modules, "/leaked" in sys.path,
          asyncio.get_event_loop_policy()._local._loop is None, threading.active_count())
"""


def test_a_polluting_snippet_leaves_nothing_for_the_next(server: ForkServer, tmp_path: Path) -> None:
    polluter = write(tmp_path, "polluter.py", POLLUTER)
    checker = write(tmp_path, "checker.py", CHECKER)
    first = start("warm", server, polluter, tmp_path)
    assert (first.exit_code, first.stdout) == (0, "polluted 2\n"), first.stderr
    after = start("warm", server, checker, tmp_path)
    assert after.exit_code == 0, after.stderr
    assert after.stdout == "False False True False False True 1\n"


EXITS = {
    "sys.exit(3)": (3, "", ""),
    "sys.exit('bad input')": (1, "", "bad input\n"),
    "raise SystemExit": (0, "", ""),
    "os.kill(os.getpid(), signal.SIGTERM)": (-signal.SIGTERM, "", ""),
    "atexit.register(print, 'atexit ran')": (0, "atexit ran\n", ""),
    # The program stays __main__ to the end, for its atexit callbacks too; CPython removes its
    # __file__ once the code has run.
    "atexit.register(lambda: print(sys.modules['__main__'].__dict__ is globals(), '__file__' in globals()))": (
        0,
        "True False\n",
        "",
    ),
    # A non-daemon thread still running when the program ends is waited for, as by the interpreter.
    "threading.Thread(target=lambda: (time.sleep(0.3), print('thread finished'))).start()": (
        0,
        "thread finished\n",
        "",
    ),
}


@pytest.mark.parametrize("how", ["cold", "warm"])
@pytest.mark.parametrize("line", list(EXITS))
def test_exit_paths_match_a_cold_interpreter(how: str, line: str, server: ForkServer, tmp_path: Path) -> None:
    program = write(tmp_path, "ending.py", f"import atexit, os, signal, sys, threading, time\n{line}\n")
    done = start(how, server, program, tmp_path)
    assert (done.exit_code, done.stdout, done.stderr) == EXITS[line]


@pytest.mark.parametrize("how", ["cold", "warm"])
def test_an_uncaught_exception_prints_the_snippets_traceback_only(how: str, server: ForkServer, tmp_path: Path) -> None:
    program = write(tmp_path, "crash.py", "def f():\n    raise ValueError('no answer')\n\nf()\n")
    done = start(how, server, program, tmp_path)
    assert done.exit_code == 1
    assert done.stderr == (
        f'Traceback (most recent call last):\n  File "{program}", line 4, in <module>\n    f()\n'
        f"  File \"{program}\", line 2, in f\n    raise ValueError('no answer')\n"
        "ValueError: no answer\n"
    )


def test_a_hanging_snippet_is_killed_with_its_children_and_names_its_line(server: ForkServer, tmp_path: Path) -> None:
    program = write(
        tmp_path,
        "hang.py",
        """
        import subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
        print(child.pid, flush=True)
        time.sleep(3600)
    """,
    )
    done = start("warm", server, program, tmp_path, timeout_s=3)
    assert done.timed_out and done.exit_code == -signal.SIGKILL
    assert f'File "{program}", line 5' in done.stderr  # faulthandler's dump before the kill
    assert gone(int(done.stdout))


def test_a_dead_worker_is_started_again(tmp_path: Path) -> None:
    worker = ForkServer(worker_environment())
    program = write(tmp_path, "hello.py", "print('hello')\n")
    try:
        assert start("warm", worker, program, tmp_path).stdout == "hello\n"
        os.kill(worker._proc.pid, signal.SIGKILL)
        worker._proc.wait()
        assert start("warm", worker, program, tmp_path).stdout == "hello\n"
    finally:
        worker.close()


@pytest.mark.parametrize("python", ["/bin/false", "/nonexistent/python3"])
def test_a_worker_that_cannot_start_is_a_clear_error(python: str, tmp_path: Path) -> None:
    worker = ForkServer(worker_environment(), python=python)
    program = write(tmp_path, "hello.py", "print('hello')\n")
    try:
        with pytest.raises(ForkServerError, match="warm Python worker"):
            start("warm", worker, program, tmp_path)
    finally:
        worker.close()


@pytest.mark.parametrize("how", ["cold", "warm"])
def test_a_process_that_escapes_the_group_holding_the_output_is_found_killed_and_reported(
    how: str, server: ForkServer, tmp_path: Path
) -> None:
    program = write(
        tmp_path,
        "escape.py",
        """
        import os, time
        pid = os.fork()
        if pid == 0:
            os.setsid()  # out of the process group the runner kills
            time.sleep(3600)  # still holding stdout and stderr
            os._exit(0)
        print(pid, flush=True)
    """,
    )
    done = start(how, server, program, tmp_path, timeout_s=30)
    escaped = int(done.stdout.split()[0])
    assert done.exit_code == 0 and not done.timed_out
    # Warm, the supervisor adopts and kills it as the snippet ends; cold, the runner finds it
    # through the output pipe it still holds.
    assert (
        done.anomaly
        == {
            "warm": f"a process it started left its process group and was still running after it ended (pid {escaped}; killed)",
            "cold": f"a process it started left its process group and kept its output open after it ended (pid {escaped}; killed)",
        }[how]
    )
    assert gone(escaped)


def test_a_snippet_that_kills_its_supervisor_is_reported_with_its_output(server: ForkServer, tmp_path: Path) -> None:
    program = write(
        tmp_path,
        "parricide.py",
        """
        import os, signal, time
        print("before", flush=True)
        os.kill(os.getppid(), signal.SIGKILL)
        time.sleep(3600)
    """,
    )
    done = start("warm", server, program, tmp_path, timeout_s=30)
    assert done.stdout == "before\n" and not done.timed_out
    assert "did it kill its parent?" in done.anomaly
    assert start("warm", server, write(tmp_path, "next.py", "print('fine')\n"), tmp_path).stdout == "fine\n"


@pytest.mark.parametrize("how", ["cold", "warm"])
def test_a_flood_is_killed_at_the_cap_not_at_the_timeout(how: str, server: ForkServer, tmp_path: Path) -> None:
    program = write(tmp_path, "flood.py", "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n")
    done = start(how, server, program, tmp_path, timeout_s=600)  # were the cap ignored, this would time out
    assert (done.flooded, done.timed_out, done.exit_code) == ("stdout", False, -signal.SIGKILL)
    assert len(done.stdout) == MAX_CAPTURE_BYTES


@pytest.mark.parametrize("how", ["cold", "warm"])
@pytest.mark.parametrize("beside", ["secrets.py", "html.py", "email/__init__.py"])
def test_a_file_beside_the_program_named_like_a_loaded_module_is_imported_as_python_would(
    how: str, beside: str, server: ForkServer, tmp_path: Path
) -> None:
    name = beside.split("/")[0].removesuffix(".py")
    (tmp_path / beside).parent.mkdir(exist_ok=True)
    (tmp_path / beside).write_text("MINE = True\n", encoding="utf-8")
    program = write(tmp_path, "uses_own.py", f"import {name}\nprint(getattr({name}, 'MINE', False))\n")
    done = start(how, server, program, tmp_path)
    assert (done.exit_code, done.stdout) == (0, "True\n"), done.stderr


def test_only_a_program_that_would_shadow_a_loaded_module_leaves_the_warm_worker(
    server: ForkServer, tmp_path: Path
) -> None:
    probe = "import sys\nprint('toolnexus' in sys.modules)\n"  # already imported only when warm
    plain = tmp_path / "plain"
    plain.mkdir()
    assert start("warm", server, write(plain, "probe.py", probe), tmp_path).stdout == "True\n"
    shadowing = tmp_path / "shadowing"
    shadowing.mkdir()
    (shadowing / "uuid.py").write_text("", encoding="utf-8")
    assert start("warm", server, write(shadowing, "probe.py", probe), tmp_path).stdout == "False\n"


def test_a_file_named_like_a_tracer_module_keeps_the_program_in_the_warm_worker(
    server: ForkServer, tmp_path: Path
) -> None:
    # The tracer's modules load at start-up, before the program's folder is on sys.path, in a
    # cold interpreter too: a file beside the program cannot shadow them, so no fresh start.
    probe = "import sys\nprint('toolnexus' in sys.modules)\n"  # already imported only when warm
    (tmp_path / "verified_docs_trace.py").write_text("", encoding="utf-8")
    assert start("warm", server, write(tmp_path, "probe.py", probe), tmp_path).stdout == "True\n"


def test_a_detached_process_that_outlives_the_snippet_is_found_killed_and_reported(
    server: ForkServer, tmp_path: Path
) -> None:
    program = write(
        tmp_path,
        "detach.py",
        """
        import subprocess, sys
        daemon = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"], start_new_session=True,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(daemon.pid)
    """,
    )
    done = start("warm", server, program, tmp_path)
    daemon = int(done.stdout)
    assert done.exit_code == 0
    assert done.anomaly == (
        f"a process it started left its process group and was still running after it ended (pid {daemon}; killed)"
    )
    assert gone(daemon)


def test_a_child_left_in_the_group_is_killed_without_a_report(server: ForkServer, tmp_path: Path) -> None:
    program = write(
        tmp_path,
        "leave.py",
        """
        import subprocess, sys
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(child.pid)
    """,
    )
    done = start("warm", server, program, tmp_path)
    assert (done.exit_code, done.anomaly) == (0, None)
    assert gone(int(done.stdout))


def test_a_long_tmpdir_does_not_make_the_workers_socket_path_too_long(tmp_path, monkeypatch):
    # A Unix socket's path holds 107 bytes at most; the worker's folder sits under TMPDIR (and
    # the run's temporary root), and a TMPDIR of 16 bytes under the tests' root was already too
    # long before the worker bound its socket relative to its own folder.
    import tempfile

    long_tmp = tmp_path / ("t" * 110)
    long_tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(long_tmp))
    worker = ForkServer(worker_environment())
    try:
        assert len(os.path.join(str(long_tmp), "worker-xxxxxxxx", "worker.sock")) > 107
        program = write(tmp_path, "hello.py", "print('ran from the warm worker')\n")
        done = start("warm", worker, program, tmp_path)
        assert (done.exit_code, done.stdout) == (0, "ran from the warm worker\n"), done.stderr
    finally:
        worker.close()
