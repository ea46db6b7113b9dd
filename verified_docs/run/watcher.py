"""The run root's watcher (:mod:`verified_docs.run.tmproot`): ``python -S -I watcher.py ROOT``.

Reads from stdin the process groups the run asks it to guard (``+<pgid> <start time>`` when one
starts, ``-<pgid> <start time>`` when it ended) until the pipe closes, which happens when the
run exits or is killed; then kills each group still guarded whose leader is the process that
was started (a pid reused since is left alone), and removes ROOT, retried briefly, since a
process of the run may still be writing into it as it dies. Standard library only.
"""

import collections
import os
import shutil
import signal
import sys
import time


def _guarded(lines) -> collections.Counter:
    groups: collections.Counter = collections.Counter()
    for line in lines:
        try:
            groups[line[1:].decode().strip()] += 1 if line[:1] == b"+" else -1
        except UnicodeDecodeError:
            pass
    return groups


def _kill_still_running(groups: collections.Counter) -> None:
    for group, count in groups.items():
        try:
            pgid, started = group.split()
            with open(f"/proc/{pgid}/stat") as f:
                same = f.read().rsplit(")", 1)[1].split()[19] == started
            if count > 0 and same:
                os.killpg(int(pgid), signal.SIGKILL)
        except (OSError, ValueError, IndexError):  # gone already, or not a line we wrote
            pass


def main(root: str) -> None:
    _kill_still_running(_guarded(sys.stdin.buffer))
    for _ in range(20):
        shutil.rmtree(root, ignore_errors=True)
        if not os.path.exists(root):
            break
        time.sleep(0.1)


if __name__ == "__main__":
    main(sys.argv[1])
