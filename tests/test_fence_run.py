"""fence_run: what a page's fences read is recorded (reads, imports; not writes), a change to
any of it (content, or a missing file appearing) is seen, and process state is put back."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

from verified_docs.fences.run import FenceFailure, PageRun, ProcessState, ReadRecorder, first_change


def test_files_read_and_modules_imported_are_recorded_and_writes_are_not(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "data.txt").write_text("1\n")
    (tmp_path / "vd_sample_helper.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    recorder = ReadRecorder()
    with recorder.recording():
        (tmp_path / "data.txt").read_text()
        (tmp_path / "written.txt").write_text("out\n")
        try:
            open(tmp_path / "missing.txt")
        except FileNotFoundError:
            pass
        importlib.import_module("vd_sample_helper")
    (tmp_path / "after.txt").write_text("x\n")
    (tmp_path / "after.txt").read_text()  # outside the recording
    sys.modules.pop("vd_sample_helper", None)
    reads = recorder.reads()
    ours = {Path(p).name: d for p, d in reads.items() if Path(p).parent == tmp_path}
    assert sorted(ours) == ["data.txt", "missing.txt", "vd_sample_helper.py"]
    assert ours["missing.txt"] is None
    assert first_change(reads) is None


def test_a_changed_or_newly_created_file_is_a_change(tmp_path: Path) -> None:
    data, missing = tmp_path / "data.txt", tmp_path / "missing.txt"
    data.write_text("1\n")
    recorder = ReadRecorder()
    with recorder.recording():
        data.read_text()
        try:
            missing.read_text()
        except FileNotFoundError:
            pass
    reads = recorder.reads()
    data.write_text("2\n")
    assert first_change(reads) == str(data)
    data.write_text("1\n")
    assert first_change(reads) is None
    missing.write_text("now here\n")
    assert first_change(reads) == str(missing)


def test_a_page_run_round_trips(tmp_path: Path) -> None:
    run = PageRun(frozenset({("/d/a.md", 3)}), (FenceFailure("/d/b.md", 5, "KeyError: 'X'"),), {"/d/x": None})
    run.save(tmp_path / "run.json")
    assert PageRun.load(tmp_path / "run.json") == run
    assert str(run.failed[0].problem()).splitlines()[0] == "/d/b.md:5: Python fence failed: KeyError: 'X'"


def test_process_state_is_put_back(tmp_path: Path) -> None:
    before = ProcessState.capture()
    try:
        os.environ["VD_SET_BY_A_FENCE"] = "1"
        os.chdir(tmp_path)
        sys.path.append(str(tmp_path))
        before.restore()
        assert "VD_SET_BY_A_FENCE" not in os.environ
        assert os.getcwd() == before.cwd and sys.path == before.path
    finally:
        before.restore()
