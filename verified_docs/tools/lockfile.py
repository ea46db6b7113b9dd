"""Does ``uv.lock`` still match ``pyproject.toml``? One line per requirement that differs.

uv records, in the lock's entry for this project, the requirements it was resolved from
(``[package.metadata] requires-dist`` and ``requires-dev``). Comparing those with what
``pyproject.toml`` asks for now tells which pin was edited without refreshing the lock, at its
line, offline and in milliseconds; ``uv lock --check`` says only that something differs. Reads
files only (``tomllib`` and ``packaging``): the noxfile calls it before installing anything.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

from verified_docs.errors import Location, Problem

LOCK_FILE = "uv.lock"
REFRESH = "refresh the lock: nox -s lock"

# (what asks: "" for [project] dependencies, an extra's or a group's name; name; extras; specifier; marker)
Key = tuple[str, str, tuple[str, ...], str, str]


def _key(where: str, name: str, extras: list[str] | tuple[str, ...], specifier: str, marker: str) -> Key:
    return (
        where,
        canonicalize_name(name),
        tuple(sorted(canonicalize_name(e) for e in extras)),
        ",".join(sorted(str(s) for s in SpecifierSet(specifier))),
        marker,
    )


def _wanted(pyproject: dict) -> dict[Key, str]:
    """Every requirement ``pyproject.toml`` states -> its text as written."""
    project = pyproject.get("project", {})
    out: dict[Key, str] = {}
    sources = [("", project.get("dependencies", []), "")]
    sources += [
        (extra, reqs, f"extra == '{extra}'") for extra, reqs in project.get("optional-dependencies", {}).items()
    ]
    for where, reqs, marker in sources:
        for text in reqs:
            r = Requirement(text)
            m = " and ".join(x for x in (str(r.marker) if r.marker else "", marker) if x)
            out[_key(where, r.name, sorted(r.extras), str(r.specifier), m)] = text
    for group, reqs in pyproject.get("dependency-groups", {}).items():
        for text in reqs:
            if isinstance(text, str):  # an {include-group = ...} table is uv's business
                r = Requirement(text)
                out[
                    _key(
                        f"group {group}", r.name, sorted(r.extras), str(r.specifier), str(r.marker) if r.marker else ""
                    )
                ] = text
    return out


def _locked(lock: dict, project: str) -> dict[Key, str]:
    """The requirements the lock was made from -> a readable form of each."""
    entry = next((p for p in lock.get("package", []) if p.get("name") == canonicalize_name(project)), None)
    if entry is None:
        return {}
    meta = entry.get("metadata", {})
    out: dict[Key, str] = {}

    def add(where: str, item: dict) -> None:
        text = (
            item["name"] + (f"[{','.join(item['extras'])}]" if item.get("extras") else "") + item.get("specifier", "")
        )
        out[_key(where, item["name"], item.get("extras", []), item.get("specifier", ""), item.get("marker", ""))] = text

    for item in meta.get("requires-dist", []):
        marker = item.get("marker", "")
        extra = next((e for e in meta.get("provides-extras", []) if marker.endswith(f"extra == '{e}'")), "")
        add(extra, item)
    for group, items in meta.get("requires-dev", {}).items():
        for item in items:
            add(f"group {group}", item)
    return out


def _line_of(text: str, needle: str) -> int:
    """1-based line of the first line holding ``"needle"`` (quoted, as TOML writes it), else 0."""
    return next((n for n, line in enumerate(text.splitlines(), start=1) if f'"{needle}"' in line), 0)


def lock_problems(root: Path) -> list[Problem]:
    """Where ``root/pyproject.toml`` and ``root/uv.lock`` disagree: a requirement the lock was
    not made from (at its ``pyproject.toml`` line), or one the lock still holds that the file
    no longer states. Empty when they agree (or when the lock is missing: then a problem at
    ``uv.lock``). Raises ``tomllib.TOMLDecodeError`` on a malformed file."""
    pyproject_path, lock_path = Path(root) / "pyproject.toml", Path(root) / LOCK_FILE
    if not lock_path.is_file():
        return [Problem(Location(lock_path), f"missing; every install reads it ({REFRESH})")]
    text = pyproject_path.read_text(encoding="utf-8")
    pyproject = tomllib.loads(text)
    wanted = _wanted(pyproject)
    locked = _locked(tomllib.loads(lock_path.read_text(encoding="utf-8")), pyproject["project"]["name"])
    out = []
    by_name = {(k[0], k[1]): v for k, v in locked.items()}
    for key, written in wanted.items():
        if key in locked:
            continue
        was = by_name.get((key[0], key[1]))
        said = f"it was made from {was}" if was else "it has no such requirement"
        out.append(
            Problem(
                Location(pyproject_path, _line_of(text, written)),
                f"{written} is not in {LOCK_FILE} ({said}); {REFRESH}",
            )
        )
    asked = {(k[0], k[1]) for k in wanted}
    for key, shown in locked.items():
        if key not in wanted and (key[0], key[1]) not in asked:
            out.append(
                Problem(
                    Location(pyproject_path),
                    f"{LOCK_FILE} still locks {shown}, which this file no longer asks for; {REFRESH}",
                )
            )
    return out
