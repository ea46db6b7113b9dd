"""The build: each page's fences run on their own and are remembered only while everything they
read is unchanged; a build reads only its own root, wherever it is started from."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, SNIPPETS
from verified_docs import build as pipeline
from verified_docs.errors import StageFailed
from verified_docs.fences import stage as fence_stage
from verified_docs.fences.stage import Fences

# Enough of a project for its fences: pytest's options, with the fence plugin as this project's.
PYTEST_OPTIONS = '[tool.pytest.ini_options]\naddopts = ["--markdown-docs", "-p", "verified_docs.fences.plugin"]\n'

READS_A_FILE = """# Reads a file

```python
from pathlib import Path

value = Path("data/value.txt").read_text().strip()
assert value == "1", f"value is {value}"
```
"""
IMPORTS_A_MODULE = """# Imports a module of the project

```python
import vd_helper

assert vd_helper.VALUE == 1, f"VALUE is {vd_helper.VALUE}"
```
"""
SETS = """# Sets a variable

```python
import os

os.environ["VD_SHARED"] = "set by a.md"
```
"""
USES = """# Uses it

```python
import os

assert os.environ["VD_SHARED"] == "set by a.md"
```
"""


def fence_project(root: Path, pages: dict[str, str]) -> Path:
    (root / "docs").mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(PYTEST_OPTIONS)
    for name, text in pages.items():
        (root / "docs" / name).write_text(text)
    return root


def run_fences(root: Path, *, force: bool = False) -> Fences:
    fences = Fences(root, force=force)
    try:
        fences.finish()
    finally:
        fences.stop()
    return fences


@pytest.mark.parametrize(
    "page, name, before, after, error",
    [
        (READS_A_FILE, "data/value.txt", "1\n", "2\n", "7: Python fence failed: AssertionError: value is 2"),
        (
            IMPORTS_A_MODULE,
            "vd_helper.py",
            "VALUE = 1\n",
            "VALUE = 2\n",
            "6: Python fence failed: AssertionError: VALUE is 2",
        ),
    ],
    ids=["reads-a-file", "imports-a-module"],
)
def test_a_fence_runs_again_when_a_file_it_read_changed(
    tmp_path: Path, capsys, page: str, name: str, before: str, after: str, error: str
) -> None:
    root = fence_project(tmp_path, {"page.md": page})
    (root / name).parent.mkdir(exist_ok=True)
    (root / name).write_text(before)
    run_fences(root)
    assert "1 page(s) run, 0 unchanged" in capsys.readouterr().out
    run_fences(root)
    assert "0 page(s) run, 1 unchanged" in capsys.readouterr().out
    (root / name).write_text(after)
    with pytest.raises(StageFailed, match=r"^1 Python fence problem\(s\) in docs/$"):
        run_fences(root)
    out, err = capsys.readouterr()
    assert f"[fences] {root / 'docs/page.md'}: {root / name} changed since its fences passed" in out
    assert err.splitlines()[0] == f"{root / 'docs/page.md'}:{error}"


def test_a_fence_that_depends_on_another_pages_environment_fails_at_its_line(tmp_path: Path, capsys) -> None:
    root = fence_project(tmp_path, {"a.md": SETS, "b.md": USES})
    with pytest.raises(StageFailed):
        run_fences(root, force=True)
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        f"{root / 'docs/b.md'}:6: Python fence failed: KeyError: 'VD_SHARED'",
        "    each page's fences run in an interpreter of their own: nothing another page's fences set "
        "(environment, files in the working directory, imports) is there",
    ]
    assert f"--- the Python fences of {root / 'docs/b.md'} (pytest exit 1):" in out
    assert "a.md (pytest exit" not in out


def test_pages_sharing_one_pytest_process_do_not_share_their_environment(tmp_path: Path) -> None:
    # `nox -s tests` runs every page's fences in one process: the plugin (loaded with -p, as
    # pyproject.toml's addopts load it) puts the environment back between pages, so the same
    # dependency fails there too.
    root = fence_project(tmp_path, {"a.md": SETS, "b.md": USES})
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "docs", "-q", "-p", "no:cacheprovider", "-p", "verified_docs.fences.plugin"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stdout
    assert f'File "{root / "docs/b.md"}", line 6, in <module>' in done.stdout
    assert "KeyError: 'VD_SHARED'" in done.stdout
    assert "FAILED docs/b.md::[CodeFence#1][line:3]" in done.stdout and "1 failed, 1 passed" in done.stdout


def test_the_page_key_follows_the_page_and_the_plugin_not_the_other_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plugin = tmp_path / "plugin.py"
    plugin.write_bytes(fence_stage.plugin_source().read_bytes())
    monkeypatch.setattr(fence_stage, "plugin_source", lambda: plugin)
    root = fence_project(tmp_path / "project", {"a.md": SETS, "b.md": USES})
    a = root / "docs/a.md"
    before = fence_stage._fence_page_key(root, a, "context")
    (root / "docs/b.md").write_text(USES + "\nMore prose.\n")
    assert fence_stage._fence_page_key(root, a, "context") == before
    for path in (a, root / "pyproject.toml", plugin):
        original = path.read_text()
        path.write_text(original + "\n# edited\n")
        assert fence_stage._fence_page_key(root, a, "context") != before, path
        path.write_text(original)
    assert fence_stage._fence_page_key(root, a, "other context") != before


MKDOCS_PAGE = (
    '# Page\n\n<!-- verified-example scenario="suspension/approval-gate" program="approval_gate" section="tool" -->\n'
)


def test_a_build_reads_only_its_root_whatever_the_working_directory(tmp_path: Path) -> None:
    # Started from another checkout holding the same paths with other content, the build
    # must include its own root's files (pymdownx.snippets resolves against the cwd).
    root, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    for folder in (root, elsewhere):
        shutil.copytree(SNIPPETS / "suspension/approval-gate", folder / "snippets/suspension/approval-gate")
    program = elsewhere / "snippets/suspension/approval-gate/approval_gate.py"
    program.write_text(program.read_text().replace("approved by {approver}", "OTHER CHECKOUT {approver}"))
    fence_project(root, {"index.md": MKDOCS_PAGE, "fences.md": "# Fences\n\n```python\nassert 1 + 1 == 2\n```\n"})
    config = (ROOT / "mkdocs.yml").read_text()
    config = config[: config.index("nav:")] + "nav:\n  - index.md\n  - fences.md\n" + config[config.index("theme:") :]
    (root / "mkdocs.yml").write_text(
        config.replace("verified_docs/site/mkdocs_hook.py", str(ROOT / "verified_docs/site/mkdocs_hook.py"))
    )
    done = subprocess.run(
        [sys.executable, "-m", "verified_docs", "build", "--root", str(root)],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    html = (root / "site/index.html").read_text()
    assert "approved by" in html and "OTHER CHECKOUT" not in html


def test_a_bad_root_is_one_line_and_exit_2(tmp_path: Path, capsys, monkeypatch) -> None:
    (tmp_path / "a-file").write_text("x\n")
    assert pipeline.main(["--root", str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err == (
        f"{tmp_path / 'nowhere'}: not a project root: expected a directory holding "
        "mkdocs.yml, got no such file or directory\n"
    )
    assert pipeline.main(["--root", str(tmp_path / "a-file")]) == 2
    assert capsys.readouterr().err == (
        f"{tmp_path / 'a-file'}: not a project root: expected a directory holding mkdocs.yml, got a file\n"
    )
    monkeypatch.chdir(tmp_path)
    assert pipeline.main([]) == 2
    assert capsys.readouterr().err == (
        f"{tmp_path.resolve()}: not a project root: expected a directory holding "
        "mkdocs.yml, got a directory without one (no --root given: the current "
        "directory)\n"
    )
