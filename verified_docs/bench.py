"""Benchmarks, printed side by side from one run (medians with min and max): a cold
``import toolnexus``, a bare ``mkdocs build`` of this site, a full verification, the
per-program overhead, and the mock model's round trips per second.

Ratios are what to compare: this machine is shared, so absolute seconds drift between runs.
"""
from __future__ import annotations

import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import ledger
from .errors import Location
from .mock_model import MockModel
from .scenario import Step, discover_project
from .verify import verify_all


def _timed(argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=cwd, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def _stats(samples: list[float]) -> str:
    return f"median {statistics.median(samples):7.3f}s  min {min(samples):7.3f}s  max {max(samples):7.3f}s"


def mock_round_trips(seconds: float = 2.0) -> float:
    """Sequential chat-completion round trips per second over one keep-alive connection."""
    steps = tuple(Step(Location(Path("bench"), 0), reply="ok") for _ in range(200_000))
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]})
    with MockModel(steps, Location(Path("bench"), 0)) as mock:
        conn = http.client.HTTPConnection("127.0.0.1", mock.port)
        headers = {"Authorization": f"Bearer {mock.api_key}", "Content-Type": "application/json"}
        count, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            conn.request("POST", "/v1/chat/completions", body=body, headers=headers)
            conn.getresponse().read()
            count += 1
        elapsed = time.perf_counter() - start
        conn.close()
    return count / elapsed


def main(root: Path, repeats: int = 3) -> int:
    root = root.resolve()
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    imports = [_timed([sys.executable, "-c", "import toolnexus"], root) for _ in range(repeats)]
    scenarios = discover_project(root)
    totals, overheads, verdicts = [], [], []
    for _ in range(max(1, repeats - 1)):
        start = time.perf_counter()
        verdicts = [v for vs in verify_all(scenarios).values() for v in vs]
        totals.append(time.perf_counter() - start)
        # Core-seconds the whole verification took, minus each program's own wall time, spread
        # over the programs: what the harness (mock, tracer, bookkeeping) adds to each.
        own = sum(v.duration_s for v in verdicts)
        overheads.append(max(0.0, (totals[-1] * (os.cpu_count() or 1) - own) / len(verdicts)))
    with tempfile.TemporaryDirectory() as tmp:
        ledger_path = Path(tmp) / "ledger.json"
        ledger.save(ledger.build(verdicts, root), ledger_path)
        env["VERIFIED_DOCS_LEDGER"] = str(ledger_path)
        site = str(Path(tmp) / "site")
        builds = [_timed([sys.executable, "-m", "mkdocs", "build", "-q", "-d", site], root, env) for _ in range(repeats)]
    runs = len(verdicts)
    trips = mock_round_trips()
    cold_import = statistics.median(imports)
    print(f"cold import toolnexus      {_stats(imports)}")
    print(f"bare mkdocs build          {_stats(builds)}")
    print(f"verify all ({runs} runs)      {_stats(totals)}  on {os.cpu_count()} cores")
    print(f"harness overhead / program {_stats(overheads)}  "
          f"= {100 * statistics.median(overheads) / cold_import:.0f}% of a cold import (target <= 10%)")
    print(f"program wall time / run    median {statistics.median([v.duration_s for v in verdicts]):.3f}s "
          f"(includes a fresh interpreter and toolnexus import per program)")
    print(f"mock model                 {trips:,.0f} round trips/s (target >= 2,000)")
    print("not measured yet: cold vs no-op `nox -s docs` (no result cache exists, so a no-op rebuild "
          "re-verifies everything)")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path.cwd()))
