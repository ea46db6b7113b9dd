"""The command a page gives its reader to run one run of an example themselves.

``python -m verified_docs try <scenario> --run <run>`` (:mod:`verified_docs.serve.try_example`)
runs that run, after the runs before it, against the build's scripted model and prints its
output as the page shows it. The render stage shows it in a console block of its own, with a
copy button (:mod:`verified_docs.render.evidence`); the ledger vouches for the text of each
run that passed (:meth:`verified_docs.ledger.Ledger.verified_hashes`), so the guard accepts
that block and no other command.
"""

from __future__ import annotations

import shlex

# A line wider than this goes on two, joined by a backslash, so the block fits in a tab set
# too (72 characters there, 80 at the top level: verified_docs/render/code_width.py). It
# depends on the text alone, so the ledger can tell the block a page shows.
WIDTH = 72


def try_command(scenario: str, run: str) -> str:
    """The shell command that runs ``run`` of ``scenario`` (``suspension/answer-later``) the
    way the build did and prints its output: one line, or two when wider than :data:`WIDTH`
    (``--run <run>`` on the second, after a backslash), as a POSIX shell reads it pasted."""
    head = shlex.join(["python", "-m", "verified_docs", "try", scenario])
    tail = shlex.join(["--run", run])
    line = f"{head} {tail}"
    return line if len(line) <= WIDTH else f"{head} \\\n    {tail}"
