"""The result cache: an unchanged, passed scenario is not run again; any change to what could
alter its verdict runs it; a failure is never stored; --force and CI run everything."""

from __future__ import annotations

import ast
import shutil
import types
from pathlib import Path

import pytest

from conftest import ROOT, SNIPPETS
from verified_docs import cache as cache_mod
from verified_docs import cli
from verified_docs import ledger as ledger_mod
from verified_docs.scenario.load import load_scenario

NAME = "suspension/approval-gate"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(SNIPPETS / NAME, tmp_path / "snippets" / NAME)
    return tmp_path


def verify(project: Path, cache: cache_mod.ResultCache):
    scenario = load_scenario(project / "snippets" / NAME, project / "snippets")
    by_scenario, cached = cache_mod.verify_cached([scenario], None, cache)
    return by_scenario[NAME], NAME in cached


def test_a_passed_scenario_is_answered_from_the_cache_with_the_same_verdicts(project: Path) -> None:
    cache = cache_mod.ResultCache.open(project / "cache")
    first, hit = verify(project, cache)
    assert not hit and all(v.passed for v in first)
    again, hit = verify(project, cache)
    assert hit
    assert [(v.run.name, v.language, v.program, v.passed, v.stdout, v.duration_s) for v in again] == [
        (v.run.name, v.language, v.program, v.passed, v.stdout, v.duration_s) for v in first
    ]


@pytest.mark.parametrize("change", ["program", "scenario file", "new file in the folder"])
def test_a_change_to_the_scenarios_files_runs_it_again(project: Path, change: str) -> None:
    cache = cache_mod.ResultCache.open(project / "cache")
    verify(project, cache)
    folder = project / "snippets" / NAME
    target = {
        "program": folder / "approval_gate.py",
        "scenario file": folder / "scenario.yaml",
        "new file in the folder": folder / "notes.txt",
    }[change]
    with target.open("a", encoding="utf-8") as f:
        f.write("\n# changed\n")
    verdicts, hit = verify(project, cache)
    assert not hit and all(v.passed for v in verdicts)
    assert verify(project, cache)[1]


def test_a_failure_is_never_stored(project: Path) -> None:
    cache = cache_mod.ResultCache.open(project / "cache")
    golden = project / "snippets" / NAME / "approval_gate.py.out"
    golden.write_text(golden.read_text().replace("dana", "dina"))
    for _ in range(2):
        verdicts, hit = verify(project, cache)
        assert not hit and not all(v.passed for v in verdicts)
    assert not list((project / "cache").glob("*.json"))


def test_another_toolnexus_is_a_miss(project: Path, monkeypatch) -> None:
    cache = cache_mod.ResultCache.open(project / "cache")
    verify(project, cache)
    real = cache_mod.distribution("toolnexus")
    monkeypatch.setattr(
        cache_mod, "distribution", lambda name: types.SimpleNamespace(version="99.0.0", files=real.files)
    )
    assert cache_mod.environment_digest() != cache.context[64:]
    assert not verify(project, cache_mod.ResultCache.open(project / "cache"))[1]


def _package_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    package = tmp_path / "package"
    shutil.copytree(cache_mod.PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache_mod, "PACKAGE", package)
    return package


# Files that decide a verdict (the tracer, the evidence checks, the mock model, the scenario
# loader) and files that decide none (tools, serve, render, site, release, the command line).
DECIDING = ["run/tracer/sitecustomize.py", "verify/evidence.py", "run/mock_model/server.py", "scenario/load.py"]
NOT_DECIDING = [
    "tools/bench.py",
    "tools/soak.py",
    "serve/author_loop.py",
    "serve/preview.py",
    "site/mkdocs_hook.py",
    "render/pages.py",
    "release/matrix.py",
    "cli.py",
]


@pytest.mark.parametrize(
    ("edited", "drops"), [(f, True) for f in DECIDING] + [(f, False) for f in NOT_DECIDING], ids=str
)
def test_only_an_edit_of_the_verdict_path_drops_the_cached_verdicts(
    edited: str, drops: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = _package_copy(tmp_path, monkeypatch)
    before = cache_mod.machinery_digest()
    with (package / edited).open("a", encoding="utf-8") as f:
        f.write("# edited\n")
    assert (cache_mod.machinery_digest() != before) is drops


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and _is_package(node.module):
            found |= (
                {node.module} if node.module != "verified_docs" else {f"verified_docs.{a.name}" for a in node.names}
            )
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if _is_package(a.name)}
    return found


def _is_package(module: str) -> bool:
    """Whether ``module`` is verified_docs or one of its modules (the tracer's own top-level
    modules, such as verified_docs_forkserver, are not)."""
    return module == "verified_docs" or module.startswith("verified_docs.")


def _in_parts(module: str, parts: tuple[str, ...]) -> bool:
    relative = module.split(".")[1:]
    return any(relative[: len(p.removesuffix(".py").split("/"))] == p.removesuffix(".py").split("/") for p in parts)


def test_the_verdict_path_imports_nothing_outside_itself() -> None:
    # The cache key hashes only VERDICT_PATH; code the verdict path imports from elsewhere
    # could change a verdict without changing the key.
    outside = []
    for part in cache_mod.VERDICT_PATH:
        path = cache_mod.PACKAGE / part
        for module in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            for name in sorted(_imported_modules(module)):
                if not _in_parts(name, cache_mod.VERDICT_PATH):
                    outside.append(f"{module.relative_to(ROOT)} imports {name}")
    assert outside == [], "add the module to cache.VERDICT_PATH, or import it from inside the verdict path"


def test_the_import_check_sees_an_import_from_outside(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("from verified_docs.render.pages import render_tree\nfrom verified_docs.verify import golden\n")
    names = _imported_modules(module)
    assert names == {"verified_docs.render.pages", "verified_docs.verify"}
    assert [n for n in sorted(names) if not _in_parts(n, cache_mod.VERDICT_PATH)] == ["verified_docs.render.pages"]


def test_a_damaged_entry_is_a_miss(project: Path) -> None:
    cache = cache_mod.ResultCache.open(project / "cache")
    verify(project, cache)
    (entry,) = (project / "cache").glob("*.json")
    entry.write_text('{"runs": [{"run": "nope"}]}')
    verdicts, hit = verify(project, cache)
    assert not hit and all(v.passed for v in verdicts)


@pytest.mark.parametrize("how", ["force", "CI"])
def test_force_and_ci_run_every_scenario(project: Path, how: str, monkeypatch, capsys) -> None:
    monkeypatch.delenv("CI", raising=False)  # this suite itself may run under CI
    args = ["verify", "--root", str(project), "--ledger", "ledger.json"]
    assert cli.main(args) == 0
    assert cli.main(args) == 0
    assert "(cached)" in capsys.readouterr().out
    if how == "CI":
        monkeypatch.setenv("CI", "true")
    assert cli.main(args + (["--force"] if how == "force" else [])) == 0
    out = capsys.readouterr().out
    assert "(cached)" not in out and "0 of 1 scenarios unchanged" in out


def test_verify_only_keeps_the_other_scenarios_in_the_ledger(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    for name in (NAME, "suspension/the-primitive"):
        shutil.copytree(SNIPPETS / name, tmp_path / "snippets" / name)
    args = ["verify", "--root", str(tmp_path), "--ledger", "ledger.json"]
    assert cli.main(args) == 0
    full = ledger_mod.load(tmp_path / "ledger.json").programs
    assert cli.main(args + ["--only", NAME, "--force"]) == 0
    after = ledger_mod.load(tmp_path / "ledger.json").programs
    assert sorted(after) == sorted(full)
    assert {k: v for k, v in after.items() if v["scenario"] != NAME} == {
        k: v for k, v in full.items() if v["scenario"] != NAME
    }


def test_a_module_imported_from_outside_the_folder_is_part_of_the_entry(project: Path) -> None:
    shared = project / "shared"
    shared.mkdir()
    (shared / "footer.py").write_text("FOOTER = 'v1'\n", encoding="utf-8")
    program = project / "snippets" / NAME / "approval_gate.py"
    program.write_text(
        f"import sys\nsys.path.insert(0, {str(shared)!r})\nimport footer\n" + program.read_text(), encoding="utf-8"
    )
    cache = cache_mod.ResultCache.open(project / "cache")
    verdicts, hit = verify(project, cache)
    assert not hit and all(v.passed for v in verdicts)
    assert str((shared / "footer.py").resolve()) in verdicts[0].imports
    assert verify(project, cache)[1]
    (shared / "footer.py").write_text("FOOTER = 'v2'\n", encoding="utf-8")
    assert not verify(project, cache)[1]


def test_parsed_scenarios_are_reused_until_a_file_of_the_folder_changes(project: Path, monkeypatch) -> None:
    from verified_docs.scenario import load as scenario_mod
    from verified_docs.scenario import parse as parse_mod

    store = cache_mod.ParsedScenarios.open(project / "parsed")
    folder, root = project / "snippets" / NAME, project / "snippets"
    first = store.load(folder, root, "")
    monkeypatch.setattr(scenario_mod, "_LOADED", {})  # a new process: nothing in memory
    monkeypatch.setattr(parse_mod, "parse_scenario", lambda *a: pytest.fail("parsed again"))
    assert store.load(folder, root, "") == first
    monkeypatch.undo()
    with (folder / "scenario.yaml").open("a", encoding="utf-8") as f:
        f.write("# changed\n")
    parsed_again = []
    real = parse_mod.parse_scenario
    monkeypatch.setattr(parse_mod, "parse_scenario", lambda *a: parsed_again.append(1) or real(*a))
    assert store.load(folder, root, "").name == first.name and parsed_again == [1]
