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
