"""The map of the code in CONTRIBUTING.md names every package and module of verified_docs/.

The map is the one ``text`` code block under "## Map of the code". Each of its lines that
starts with ``verified_docs/`` names a package folder (ending in ``/``), a module or a data
file, then two or more spaces and a description. Every folder holding Python files and every
``.py`` module (``__init__.py`` and ``__main__.py`` aside) must be listed exactly once, and
every listed path must exist.
"""

from __future__ import annotations

import re
from pathlib import Path

from conftest import ROOT

CONTRIBUTING = ROOT / "CONTRIBUTING.md"
PACKAGE = "verified_docs"
LEFT_OUT = {"__init__.py", "__main__.py"}
ENTRY = re.compile(rf"^({PACKAGE}/\S*)\s{{2,}}\S")


def map_lines(markdown: str) -> list[str]:
    """The lines of the map that start with ``verified_docs/``, in order."""
    section = markdown.split("\n## Map of the code\n", 1)[1]
    block = re.search(r"^```text\n(.*?)^```", section, re.S | re.M)
    assert block is not None, f"{CONTRIBUTING}: no ```text block under '## Map of the code'"
    return [line for line in block.group(1).splitlines() if line.startswith(f"{PACKAGE}/")]


def tree_paths(root: Path) -> set[str]:
    """Every package folder (``a/b/``) and module (``a/b/c.py``) under ``root/verified_docs``."""
    modules = [p for p in (root / PACKAGE).rglob("*.py") if "__pycache__" not in p.parts]
    found = {p.relative_to(root).as_posix() for p in modules if p.name not in LEFT_OUT}
    found |= {p.parent.relative_to(root).as_posix() + "/" for p in modules}
    return found


def map_problems(lines: list[str], root: Path) -> list[str]:
    """What is wrong with the map ``lines`` for the tree at ``root``; empty when it is right."""
    entries = [(line, ENTRY.match(line)) for line in lines]
    problems = [f"{line!r}: not 'path  description' (two or more spaces between)" for line, m in entries if not m]
    listed = [m.group(1) for _, m in entries if m]
    twice = sorted({p for p in listed if listed.count(p) > 1})
    problems += [f"{p}: listed more than once; remove it from the map" for p in twice]
    missing = sorted(tree_paths(root) - set(listed))
    problems += [f"{p}: not listed; add it to the map in CONTRIBUTING.md" for p in missing]
    problems += [f"{p}: does not exist; remove it from the map" for p in listed if not (root / p).exists()]
    return problems


def test_the_map_lists_every_package_and_module_and_nothing_else() -> None:
    problems = map_problems(map_lines(CONTRIBUTING.read_text(encoding="utf-8")), ROOT)
    assert problems == [], f"{CONTRIBUTING}, '## Map of the code':\n" + "\n".join(problems)


def test_a_module_missing_from_the_map_and_a_path_gone_from_the_tree_are_reported(tmp_path: Path) -> None:
    lines = map_lines(CONTRIBUTING.read_text(encoding="utf-8"))
    listed = {line.split()[0] for line in lines}
    for path in sorted(tree_paths(ROOT) | listed):  # a copy of the real tree, with empty files
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        if path.endswith("/"):
            (tmp_path / path).mkdir(exist_ok=True)
        else:
            (tmp_path / path).touch()
    assert map_problems(lines, tmp_path) == []
    (tmp_path / PACKAGE / "verify" / "new_check.py").touch()
    (tmp_path / PACKAGE / "tools" / "soak.py").unlink()
    assert map_problems(lines, tmp_path) == [
        f"{PACKAGE}/verify/new_check.py: not listed; add it to the map in CONTRIBUTING.md",
        f"{PACKAGE}/tools/soak.py: does not exist; remove it from the map",
    ]
