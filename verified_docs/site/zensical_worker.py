"""Zensical kept loaded in a process of its own, which builds a configuration on each request.

``python -m verified_docs.site.zensical_worker`` reads one JSON request per line on stdin
(``{"config": PATH, "strict": BOOL, "output": PATH}``), builds that configuration with
``zensical.build`` in this process, from the configuration's folder, and answers one JSON line
on stdout: ``{"ok": true, "id": ID}`` or ``{"ok": false, "error": TEXT, "id": ID}`` (the
request's ``id``); after a panic it answers, then exits. Everything the build prints,
on stdout or stderr (Zensical's Rust side writes to the file descriptors, not through
``sys.stderr``), goes to the file named ``output``, so the caller reads the report even when a
panic ends this process.

Why a process that stays: the author loop builds the whole site on every save, and a
``python -m zensical build`` pays its interpreter start and imports each time, and builds slower
on a first call than on later ones in one process (this site: 1.4 s a save as a new process,
1.0 s from a kept one). Why not in the serve process itself: Zensical's report would bypass the
captured ``sys.stderr`` the failure banner shows, and a panic would end the server.
(``zensical.build`` raises ``RuntimeError`` when ``--strict`` aborts, in 0.0.73.)

Why the scans are memoised: on every build Zensical's Rust side calls the Python scans in
``zensical.collectors`` (``references`` over each page's Markdown, ``anchors`` over each page's
HTML) for every page, changed or not, and they cost most of a no-op rebuild (this site:
0.78 s a kept-process no-op build, 0.23 s with the memo, the same bytes written). They are
pure functions of their text, so a page whose text did not change gets its answer back.
"""

from __future__ import annotations

import functools
import importlib
import json
import os
import signal
import sys
from collections.abc import Callable, Iterator
from typing import Any

# (module, function) pairs of zensical's pure scans, looked up through the package by its Rust side
COLLECTORS = (("zensical.collectors.references", "references"), ("zensical.collectors.anchors", "anchors"))
MEMO_SIZE = 4096  # texts remembered per scan: pages x (Markdown or HTML) of a site far larger than ours


def _memoised(scan: Callable[..., Iterator[Any]]) -> Callable[..., Iterator[Any]]:
    """``scan`` with its results kept as a tuple per argument tuple, yielded again on a repeat.

    The arguments are the page's text (``bytes`` or ``str``) and, for ``references``, an ``int``
    shift: hashable, and the whole input of the scan."""
    remembered = functools.lru_cache(maxsize=MEMO_SIZE)(lambda *args: tuple(scan(*args)))

    @functools.wraps(scan)
    def again(*args: Any) -> Iterator[Any]:
        return iter(remembered(*args))

    again.cache_info = remembered.cache_info  # type: ignore[attr-defined]
    return again


def memoise_collectors() -> None:
    """Replace each of COLLECTORS, in its module and in the ``zensical.collectors`` package, with
    a memoised copy. Call it before the first build: the Rust side may keep what it looked up.
    Idempotent."""
    package = importlib.import_module("zensical.collectors")
    for module_name, name in COLLECTORS:
        module = importlib.import_module(module_name)
        scan = getattr(module, name)
        if hasattr(scan, "cache_info"):
            continue
        memo = _memoised(scan)
        setattr(module, name, memo)
        setattr(package, name, memo)


def _build(request: dict) -> dict:
    import zensical

    config = os.path.abspath(request["config"])
    os.chdir(os.path.dirname(config))
    try:
        zensical.build(config, {"strict": bool(request.get("strict", True)), "clean": False})
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as e:  # --strict aborting raises RuntimeError
        return {"ok": False, "error": f"{type(e).__name__}: {e}"}
    except BaseException as e:  # a panic (pyo3's PanicException): this process may be left unsound
        return {"ok": False, "error": f"{type(e).__name__}: {e}", "ended": True}
    return {"ok": True}


def main() -> int:
    """Serve requests until stdin closes (exit 0) or a build panicked (exit 1, once answered)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's; it closes our stdin
    memoise_collectors()
    answers = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # nothing else may write to the answers' pipe; fd 1 and 2 go to each build's file
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        saved = os.dup(1), os.dup(2)
        with open(request["output"], "wb", buffering=0) as out:
            os.dup2(out.fileno(), 1)
            os.dup2(out.fileno(), 2)
            try:
                answer = _build(request)
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os.dup2(saved[0], 1)
                os.dup2(saved[1], 2)
                os.close(saved[0])
                os.close(saved[1])
        answers.write(json.dumps({**answer, "id": request.get("id")}) + "\n")
        if answer.get("ended"):
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
