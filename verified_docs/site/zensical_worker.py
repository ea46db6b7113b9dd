"""Zensical kept loaded in a process of its own, which builds a configuration on each request.

``python -m verified_docs.site.zensical_worker`` reads one JSON request per line on stdin
(``{"config": PATH, "strict": BOOL, "output": PATH}``), builds that configuration with
``zensical.build`` in this process, from the configuration's folder, and answers one JSON line
on stdout: ``{"ok": true}`` or ``{"ok": false, "error": TEXT}``. Everything the build prints,
on stdout or stderr (Zensical's Rust side writes to the file descriptors, not through
``sys.stderr``), goes to the file named ``output``, so the caller reads the report even when a
panic ends this process.

Why a process that stays: the author loop builds the whole site on every save, and a
``python -m zensical build`` pays its interpreter start and imports each time, and builds slower
on a first call than on later ones in one process (this site: 1.4 s a save as a new process,
1.0 s from a kept one). Why not in the serve process itself: Zensical's report would bypass the
captured ``sys.stderr`` the failure banner shows, and a panic would end the server.
(``zensical.build`` raises ``RuntimeError`` when ``--strict`` aborts, in 0.0.73.)
"""

from __future__ import annotations

import json
import os
import sys


def _build(request: dict) -> dict:
    import zensical

    config = os.path.abspath(request["config"])
    os.chdir(os.path.dirname(config))
    try:
        zensical.build(config, {"strict": bool(request.get("strict", True)), "clean": False})
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # a panic is a BaseException (pyo3's PanicException)
        return {"ok": False, "error": f"{type(e).__name__}: {e}"}
    return {"ok": True}


def main() -> int:
    """Serve requests until stdin closes; exit 0 then."""
    answers = os.fdopen(os.dup(1), "w", buffering=1)  # fd 1 and 2 go to each build's output file
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
        answers.write(json.dumps(answer) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
