"""The Zensical kept loaded between builds (verified_docs/site/generator.py ZensicalWorker,
verified_docs/site/zensical_worker.py): it builds strictly, reports a warning as a failed
build with Zensical's own report, and keeps serving after a failed build or a lost process."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from verified_docs.site.generator import GeneratorFailed, ZensicalWorker


def _project(root: Path, body: str) -> Path:
    (root / "docs").mkdir(parents=True, exist_ok=True)
    (root / "docs" / "index.md").write_text(f"# Home\n\n{body}\n", encoding="utf-8")
    (root / "docs" / "other.md").write_text("# Other\n\nText.\n", encoding="utf-8")
    config = root / "mkdocs.yml"
    config.write_text("site_name: t\ndocs_dir: docs\nsite_dir: site\ntheme:\n  name: material\n", encoding="utf-8")
    return config


def test_a_warning_fails_the_build_with_zensicals_report_and_the_worker_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = _project(tmp_path, "[a dead link](gone.md)")
    with ZensicalWorker() as worker:
        with pytest.raises(GeneratorFailed, match="strict"):
            worker.build(config)
        assert "page does not exist" in capsys.readouterr().err  # Zensical's own words, not ours
        pid = worker._proc.pid if worker._proc else None
        _project(tmp_path, "[the other page](other.md)")
        worker.build(config)
        assert (tmp_path / "site" / "index.html").is_file()
        assert worker._proc is not None and worker._proc.pid == pid, "the same process built again"


def test_a_process_lost_between_builds_is_started_again(tmp_path: Path) -> None:
    config = _project(tmp_path, "Fine.")
    with ZensicalWorker() as worker:
        worker.build(config)
        assert worker._proc is not None
        os.kill(worker._proc.pid, signal.SIGKILL)
        worker._proc.wait()
        worker.build(config)  # started again, since the process had ended before the request
        assert (tmp_path / "site" / "other" / "index.html").is_file()


def test_without_strict_a_warning_passes(tmp_path: Path) -> None:
    config = _project(tmp_path, "[a dead link](gone.md)")
    with ZensicalWorker() as worker:
        worker.build(config, strict=False)
    assert (tmp_path / "site" / "index.html").is_file()


def test_an_answer_that_is_not_this_builds_fails_it_and_the_next_build_starts_afresh(tmp_path: Path) -> None:
    """The worker's answers carry the request's id: a stray line on its answer pipe (anything
    but this build's answer) fails the build instead of passing for it."""
    config = _project(tmp_path, "Fine.")
    with ZensicalWorker() as worker:
        worker.build(config)
        assert worker._proc is not None and worker._proc.stdin is not None
        # A request this build did not send, whose answer then comes first on the pipe.
        stray = {"config": str(config), "strict": True, "output": str(tmp_path / "stray.log"), "id": 999}
        worker._proc.stdin.write(json.dumps(stray) + "\n")
        worker._proc.stdin.flush()
        with pytest.raises(GeneratorFailed, match="not this build's result"):
            worker.build(config)
        assert worker._proc is None, "the process that answered out of turn is stopped"
        worker.build(config)
        assert (tmp_path / "site" / "index.html").is_file()


_BUILD_TWICE = """
import json, os, sys
import zensical
from verified_docs.site import zensical_worker
if sys.argv[2] == "memo":
    zensical_worker.memoise_collectors()
os.chdir(os.path.dirname(sys.argv[1]))
for _ in range(2):
    zensical.build(sys.argv[1], {"strict": True, "clean": False})
import zensical.collectors as c
print(json.dumps({name: list(getattr(getattr(c, name), "cache_info", lambda: ())()) for _, name in zensical_worker.COLLECTORS}))
"""


def _site_bytes(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def test_the_worker_answers_unchanged_pages_scans_from_memory_and_builds_the_same_bytes(tmp_path: Path) -> None:
    """memoise_collectors: the second build of unchanged pages is answered from the memo (hits
    counted on both scans), and the site is byte for byte the site built without it."""
    import subprocess
    import sys

    sites = {}
    for mode in ("memo", "plain"):
        config = _project(tmp_path / mode, "Text with [a link](other.md) and a {#named} anchor.")
        done = subprocess.run(
            [sys.executable, "-c", _BUILD_TWICE, str(config), mode], capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        counts = json.loads(done.stdout.strip().splitlines()[-1])
        if mode == "memo":
            for name, (hits, misses, _, _) in counts.items():
                assert misses > 0 and hits >= misses, f"{name}: {hits} hits, {misses} misses over two builds"
        else:
            assert all(info == [] for info in counts.values()), "the plain build has no memo"
        sites[mode] = _site_bytes(tmp_path / mode / "site")
    assert sites["memo"].keys() == sites["plain"].keys()
    differing = [name for name in sites["memo"] if sites["memo"][name] != sites["plain"][name]]
    assert not differing, f"the memo changed what Zensical wrote: {differing}"
