"""Find the scenarios of a project and load each, parsing a folder again only when it changed.

A scenario folder (``snippets/<guide>/<scenario>/`` or ``examples/<name>/``) holds whole
runnable programs and one ``scenario.yaml``; :mod:`verified_docs.scenario.parse` reads it into
the records of :mod:`verified_docs.scenario.records`. Every error names the YAML file and the
line of the offending value.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Mapping

from verified_docs.errors import Location, Problem, SourceError
from verified_docs.scenario.records import SCENARIO_FILE, Scenario

# Loaded scenarios by folder, kept while no file in the folder changed: `verified_docs build`
# loads every scenario to verify it and again in the render stage, and round-trip YAML parsing
# (kept for its line numbers) is most of a no-op rebuild's own time.
_LOADED: dict[tuple[Path, Path, str], tuple[tuple, Scenario]] = {}


def _folder_state(folder: Path) -> tuple:
    return tuple(
        (str(p), st.st_mtime_ns, st.st_size)
        for p in sorted(folder.rglob("*"))
        if "__pycache__" not in p.parts and (st := p.stat())
    )


def loaded_unchanged(folder: Path, root: Path, prefix: str = "") -> Scenario | None:
    """The scenario this process loaded from ``folder`` (as :func:`load_scenario` names it)
    while its files are as they were then (same names, sizes and modification times), else
    None."""
    folder = Path(folder).resolve()
    cached = _LOADED.get((folder, Path(root).resolve(), prefix))
    return cached[1] if cached is not None and cached[0] == _folder_state(folder) else None


def load_scenario(folder: Path, root: Path, prefix: str = "") -> Scenario:
    """Read ``folder/scenario.yaml``; the scenario is named ``prefix`` + its path below ``root``.

    Raises :class:`SourceError` as :func:`~verified_docs.scenario.parse.parse_scenario` does
    (every problem of the file, each at its line). A folder whose files are unchanged since it
    last loaded (same names, sizes and modification times) is not parsed again.
    """
    known = loaded_unchanged(folder, root, prefix)
    if known is not None:
        return known
    folder = Path(folder).resolve()
    key, state = (folder, Path(root).resolve(), prefix), _folder_state(folder)
    # Imported here, with ruamel.yaml and jsonschema: a rebuild that finds every scenario
    # already parsed (see cache.ParsedScenarios) does not pay for importing them.
    from verified_docs.scenario.parse import parse_scenario

    scenario = parse_scenario(folder, root, prefix)
    _LOADED[key] = (state, scenario)
    return scenario


def remember(folder: Path, root: Path, prefix: str, scenario: Scenario) -> None:
    """Record ``scenario`` as what ``load_scenario(folder, root, prefix)`` gives while the
    folder's files stay as they are now (for a loader that found it parsed already)."""
    folder = Path(folder).resolve()
    _LOADED[(folder, Path(root).resolve(), prefix)] = (_folder_state(folder), scenario)


def discover(root: Path, prefix: str = "", load: Callable[[Path, Path, str], Scenario] | None = None) -> list[Scenario]:
    """Every scenario under ``root`` (folders holding a ``scenario.yaml``), sorted by name.

    Raises :class:`SourceError` with every problem found across all scenarios.
    """
    root = Path(root)
    scenarios: list[Scenario] = []
    problems: list[Problem] = []
    for yaml_path in sorted(root.rglob(SCENARIO_FILE)):
        try:
            scenarios.append((load or load_scenario)(yaml_path.parent, root, prefix))
        except SourceError as e:
            problems.extend(e.problems)
    if problems:
        raise SourceError(*problems)
    return scenarios


def _duplicates(scenarios: list[Scenario]) -> list[Problem]:
    """Two scenarios with one name or one title: pages and reports could not tell them apart."""
    out = []
    for attr in ("name", "title"):
        first: dict[str, Scenario] = {}
        for s in scenarios:
            key = getattr(s, attr)
            if key in first:
                out.append(
                    Problem(
                        Location(s.yaml_path, 1), f"scenario {attr} {key!r} is already used by {first[key].yaml_path}"
                    )
                )
            else:
                first[key] = s
    return out


# Where scenarios live in a project: guide snippets, named by their path below snippets/, and
# larger end-to-end programs, named examples/<name>.
SCENARIO_ROOTS = (("snippets", ""), ("examples", "examples/"))


def discover_project(project: Path, load: Callable[[Path, Path, str], Scenario] | None = None) -> list[Scenario]:
    """Every scenario of the project at ``project``, guide snippets first, then examples, each
    read by ``load`` (default :func:`load_scenario`; same arguments). Raises
    :class:`SourceError` listing every problem in every scenario."""
    scenarios: list[Scenario] = []
    problems: list[Problem] = []
    for folder, prefix in SCENARIO_ROOTS:
        try:
            scenarios += discover(Path(project) / folder, prefix, load)
        except SourceError as e:
            problems.extend(e.problems)
    problems += _duplicates(scenarios)
    if problems:
        raise SourceError(*problems)
    return scenarios


def find_scenario(scenarios: Mapping[str, Scenario], name: str, where: Location) -> Scenario:
    """``scenarios[name]`` (``scenarios`` by name, e.g. ``suspension/answer-later``). Raises
    :class:`SourceError` at ``where``: ``unknown scenario 'NAME'``, the valid names listed below."""
    scenario = scenarios.get(name)
    if scenario is None:
        valid = ", ".join(sorted(scenarios)) or "(none)"
        raise SourceError(Problem(where, f"unknown scenario '{name}'", (f"valid scenarios: {valid}",)))
    return scenario
