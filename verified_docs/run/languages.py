"""How each language's program is started and observed. Python is the only language so far.

A language supplies the command line, the environment additions, and (where it can) a tracer
that records what toolnexus did inside the process. Adding a language means adding one
:class:`Language` here; the scenario format and the evidence do not change.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

TRACER_DIR = Path(__file__).parent / "tracer"


@dataclass(frozen=True)
class Language:
    """``name`` as in ``scenario.yaml``; ``display`` for tab labels; ``fence`` for highlighting;
    ``command`` builds argv from (program path, args); ``install_hint`` is shown when the
    toolchain is missing; ``traced`` says whether tool/wait_for/run events are observable;
    ``forkable`` says whether its programs may start from the warm fork server."""

    name: str
    display: str
    fence: str
    command: Callable[[Path, tuple[str, ...]], list[str]]
    toolchain: str
    install_hint: str
    traced: bool
    forkable: bool = False

    def missing_toolchain(self) -> str | None:
        """``None`` when the toolchain is usable, else a sentence with the install hint."""
        if shutil.which(self.toolchain) or Path(self.toolchain).is_file():
            return None
        return f"{self.display} toolchain '{self.toolchain}' not found; {self.install_hint}"


PYTHON = Language(
    name="python",
    display="Python",
    fence="python",
    # The interpreter running the verification is the one with the pinned toolnexus installed.
    command=lambda path, args: [sys.executable, str(path), *args],
    toolchain=sys.executable,
    install_hint="install Python 3.11+ and run through `nox -s docs`, which installs toolnexus",
    traced=True,
    forkable=True,
)

LANGUAGES: dict[str, Language] = {PYTHON.name: PYTHON}


def environment(*, base_url: str, api_key: str, trace_path: Path, workdir: Path, timeout_s: float) -> dict[str, str]:
    """A clean environment for a snippet: only what it needs, pointed at the mock model.

    Proxies are dropped and 127.0.0.1 is exempted so a machine-wide proxy setting cannot send
    the snippet's traffic anywhere but the mock.
    """
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(workdir),
        # The run's temporary root (verified_docs.run.tmproot): what a snippet makes there goes with it.
        "TMPDIR": tempfile.gettempdir(),
        "LANG": "C.UTF-8",
        "PYTHONPATH": str(TRACER_DIR),
        "PYTHONUNBUFFERED": "1",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "NO_PROXY": "127.0.0.1,localhost",
        "OPENAI_BASE_URL": base_url,
        "OPENAI_API_KEY": api_key,
        "VERIFIED_DOCS_TRACE": str(trace_path),
        "VERIFIED_DOCS_TIMEOUT": str(timeout_s),
    }


def worker_environment() -> dict[str, str]:
    """The warm Python worker's environment: what the interpreter fixes at start-up (hash
    seed, no bytecode writing, the tracer's ``sitecustomize``) as for a snippet, with tracing on
    (so toolnexus is imported already wrapped) and nothing that belongs to one run."""
    env = environment(base_url="", api_key="", trace_path=Path(os.devnull), workdir=Path("/"), timeout_s=0)
    for per_run in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "VERIFIED_DOCS_TIMEOUT", "HOME"):
        env.pop(per_run)
    return env


def read_trace(path: Path) -> list[dict[str, Any]]:
    """The tracer's events in order; a torn last line (the process was killed) is dropped."""
    if not path.is_file():
        return []
    events = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            events.append(json.loads(line))
        except json.JSONDecodeError:
            break
    return events
