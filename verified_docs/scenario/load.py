"""Load and validate ``scenario.yaml`` into frozen records that remember their file and line.

A scenario folder (``snippets/<guide>/<scenario>/``) holds whole runnable programs and one
``scenario.yaml``. The YAML is validated against ``schema.json`` (JSON Schema, beside this module); every
error names the YAML file and the line of the offending value.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

if TYPE_CHECKING:
    import jsonschema

# ruamel.yaml and jsonschema are imported where a file is parsed: a rebuild that finds every
# scenario already parsed (see cache.ParsedScenarios) does not pay for importing them.

from verified_docs.errors import Location, Problem, SourceError

SCENARIO_FILE = "scenario.yaml"
DEFAULT_TIMEOUT_S = 30.0
STEP_ACTIONS = ("call", "calls", "reply", "quote_last_tool_result")
# The evidence floor: what every run must state, so a page's account of a run can never rest on
# an exit code alone. A run that talks to the model states how often each tool ran, what the
# model was shown, how often wait_for was called (0 is a statement too) and how each run ended;
# a run with no model script states that it made no model request.
FLOOR_WITH_MODEL = ("tool_runs", "tool_results_shown", "wait_for_calls", "run_statuses")
FLOOR_WITHOUT_MODEL = ("model_requests",)


@dataclass(frozen=True)
class ToolCallStep:
    """One tool call the scripted model makes: ``tool`` name, JSON ``arguments``, optional ``id``."""

    tool: str
    arguments: dict[str, Any]
    id: str | None = None


@dataclass(frozen=True)
class Step:
    """One scripted model reply. Exactly one of ``calls`` (non-empty), ``reply`` or
    ``quote_last_tool_result`` is set; ``when_last_message`` optionally constrains the request."""

    where: Location
    calls: tuple[ToolCallStep, ...] = ()
    reply: str | None = None
    quote_last_tool_result: bool = False
    when_last_message: str | None = None
    say: str | None = None

    def describe(self) -> str:
        if self.calls:
            return "call " + ", ".join(f"{c.tool}({json.dumps(c.arguments, sort_keys=True)})" for c in self.calls)
        if self.reply is not None:
            return f"reply {self.reply!r}"
        return "quote the last tool result"


@dataclass(frozen=True)
class Expect:
    """Evidence a run must show. ``None`` means "not checked" for that item."""

    where: Location
    exit_code: int = 0
    model_requests: int | None = None
    transcript_balanced: bool | None = None
    tool_results_shown: tuple[str, ...] | None = None
    tool_runs: dict[str, int] | None = None
    tool_answers: tuple[dict[str, Any], ...] | None = None
    answer_data_read: tuple[bool, ...] | None = None
    requests_raised: tuple[dict[str, Any], ...] | None = None
    wait_for_calls: int | None = None
    sequence: tuple[str, ...] | None = None
    tool_metrics: tuple[dict[str, Any], ...] | None = None
    run_statuses: tuple[str, ...] | None = None
    stdout_contains: tuple[str, ...] = ()
    lines: dict[str, int] = field(default_factory=dict)  # evidence key -> its YAML line

    def line_of(self, key: str) -> int:
        return self.lines.get(key, self.where.line)


@dataclass(frozen=True)
class Program:
    """A whole runnable program of a run, in one language. ``path`` is absolute.
    ``golden_path`` is its golden stdout: ``<file>.out``, or ``<file>.<run>.out`` when the
    same file runs in several runs of the scenario (one output per run)."""

    language: str
    path: Path
    golden_path: Path


@dataclass(frozen=True)
class Run:
    """One process per language, run in order within the scenario's shared working directory."""

    where: Location
    name: str
    programs: dict[str, Program]
    args: tuple[str, ...]
    timeout_s: float
    steps: tuple[Step, ...]
    expect: Expect


@dataclass(frozen=True)
class Scenario:
    """A folder of programs plus its ``scenario.yaml``. ``name`` is ``<guide>/<scenario>``."""

    name: str
    folder: Path
    title: str
    summary: str
    rules: tuple[str, ...]
    known_defect: str | None
    runs: tuple[Run, ...]
    since: str | None = None
    support: tuple[Program, ...] = ()
    variants: tuple[dict[str, str], ...] = ()
    replies_unseen: dict[str, str] = field(default_factory=dict)
    equivalent_mutants: tuple[dict[str, str], ...] = ()

    @property
    def yaml_path(self) -> Path:
        return self.folder / SCENARIO_FILE

    @property
    def languages(self) -> tuple[str, ...]:
        langs: list[str] = []
        for run in self.runs:
            for lang in run.programs:
                if lang not in langs:
                    langs.append(lang)
        return tuple(langs)

    def __str__(self) -> str:
        return f"{self.name} ({self.yaml_path}:1)"


def _schema() -> dict[str, Any]:
    return json.loads(resources.files(__package__).joinpath("schema.json").read_text("utf-8"))


def _line_of(doc: Any, path: list[Any]) -> int:
    """1-based line of the value at ``path`` in a ruamel document (the nearest known parent)."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    node, line = doc, 1
    for key in path:
        try:
            if isinstance(node, CommentedMap) and key in node:
                line = node.lc.key(key)[0] + 1
            elif isinstance(node, CommentedSeq) and isinstance(key, int) and key < len(node):
                line = node.lc.item(key)[0] + 1
            node = node[key]
        except (KeyError, IndexError, TypeError, AttributeError):
            break
    return line


def _one_golden_per_run(runs: list[Run]) -> list[Run]:
    """Give a program file that several runs execute a golden file per run."""
    uses: dict[Path, int] = {}
    for run in runs:
        for program in run.programs.values():
            uses[program.path] = uses.get(program.path, 0) + 1
    out = []
    for run in runs:
        programs = {
            lang: replace(p, golden_path=p.path.with_name(f"{p.path.name}.{run.name}.out")) if uses[p.path] > 1 else p
            for lang, p in run.programs.items()
        }
        out.append(replace(run, programs=programs))
    return out


def _error_path(error: jsonschema.ValidationError) -> list[Any]:
    """Where to point for a schema error: an unexpected key's own line, else the value's."""
    path = list(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = error.schema.get("properties", {})
        extra = [k for k in error.instance if k not in allowed]
        if extra:
            path.append(extra[0])
    return path


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


def load_scenario(folder: Path, root: Path, prefix: str = "") -> Scenario:
    """Read ``folder/scenario.yaml``; the scenario is named ``prefix`` + its path below ``root``.

    Raises :class:`SourceError` for YAML syntax errors, schema violations, steps with no or
    several actions, and programs that do not exist. A folder whose files are unchanged since
    it last loaded (same names, sizes and modification times) is not parsed again.
    """
    folder = Path(folder).resolve()
    key, state = (folder, Path(root).resolve(), prefix), _folder_state(folder)
    cached = _LOADED.get(key)
    if cached is not None and cached[0] == state:
        return cached[1]
    scenario = _load_scenario(folder, root, prefix)
    _LOADED[key] = (state, scenario)
    return scenario


def remember(folder: Path, root: Path, prefix: str, scenario: Scenario) -> None:
    """Record ``scenario`` as what ``load_scenario(folder, root, prefix)`` gives while the
    folder's files stay as they are now (for a loader that found it parsed already)."""
    folder = Path(folder).resolve()
    _LOADED[(folder, Path(root).resolve(), prefix)] = (_folder_state(folder), scenario)


def _load_scenario(folder: Path, root: Path, prefix: str) -> Scenario:
    import jsonschema
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError

    path = folder / SCENARIO_FILE
    if not path.is_file():
        raise SourceError.at(folder, 0, f"no {SCENARIO_FILE} in scenario folder")
    try:
        doc = YAML(typ="rt").load(path.read_text(encoding="utf-8"))
    except MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        raise SourceError.at(path, (mark.line + 1) if mark else 0, f"invalid YAML: {e.problem or e}") from None
    plain = json.loads(json.dumps(doc))  # ruamel containers -> plain JSON data for the validator
    errors = sorted(jsonschema.Draft202012Validator(_schema()).iter_errors(plain), key=lambda e: list(e.absolute_path))
    if errors:
        raise SourceError(
            *(
                Problem(
                    Location(path, _line_of(doc, _error_path(e))),
                    f"{'/'.join(str(p) for p in e.absolute_path) or '(top level)'}: {e.message}",
                )
                for e in errors
            )
        )
    name = prefix + folder.relative_to(Path(root).resolve()).as_posix()
    default_timeout = float(plain.get("timeout", DEFAULT_TIMEOUT_S))
    problems: list[Problem] = []
    runs: list[Run] = []
    for i, raw in enumerate(plain["runs"]):
        run_line = _line_of(doc, ["runs", i])
        steps: list[Step] = []
        for j, s in enumerate(raw["model"]):
            where = Location(path, _line_of(doc, ["runs", i, "model", j]))
            actions = [a for a in STEP_ACTIONS if a in s]
            if len(actions) != 1:
                problems.append(
                    Problem(
                        where,
                        f"runs/{i}/model/{j}: a step needs exactly one of "
                        f"{', '.join(STEP_ACTIONS)}; got {', '.join(actions) or 'none'}",
                    )
                )
                continue
            if "say" in s and not ("call" in s or "calls" in s):
                problems.append(
                    Problem(where, f"runs/{i}/model/{j}: 'say' goes with call or calls (text beside a tool call)")
                )
                continue
            calls = [s["call"]] if "call" in s else s.get("calls", [])
            steps.append(
                Step(
                    where=where,
                    calls=tuple(ToolCallStep(c["tool"], c.get("arguments", {}), c.get("id")) for c in calls),
                    reply=s.get("reply"),
                    quote_last_tool_result=bool(s.get("quote_last_tool_result")),
                    when_last_message=s.get("when_last_message"),
                    say=s.get("say"),
                )
            )
        programs: dict[str, Program] = {}
        for lang, file_name in raw["programs"].items():
            program_path = folder / file_name
            if not program_path.is_file():
                problems.append(
                    Problem(
                        Location(path, _line_of(doc, ["runs", i, "programs", lang])),
                        f"program {file_name} does not exist in {folder}",
                    )
                )
            programs[lang] = Program(lang, program_path, program_path.with_name(program_path.name + ".out"))
        e = raw["expect"]
        expect_doc = doc["runs"][i]["expect"]
        floor = FLOOR_WITH_MODEL if raw["model"] else FLOOR_WITHOUT_MODEL
        below = [k for k in floor if k not in e]
        if below:
            who = "talks to the model" if raw["model"] else "has no model script"
            problems.append(
                Problem(
                    Location(path, _line_of(doc, ["runs", i, "expect"])),
                    f"runs/{i}/expect: evidence below the floor: a run that {who} must state "
                    f"{', '.join(floor)}; missing {', '.join(below)}",
                )
            )
        runs.append(
            Run(
                where=Location(path, run_line),
                name=raw["name"],
                programs=programs,
                args=tuple(raw.get("args", [])),
                timeout_s=float(raw.get("timeout", default_timeout)),
                steps=tuple(steps),
                expect=Expect(
                    where=Location(path, _line_of(doc, ["runs", i, "expect"])),
                    exit_code=e.get("exit_code", 0),
                    model_requests=e.get("model_requests"),
                    transcript_balanced=e.get("transcript_balanced"),
                    tool_results_shown=tuple(e["tool_results_shown"]) if "tool_results_shown" in e else None,
                    tool_runs=e.get("tool_runs"),
                    tool_answers=tuple(e["tool_answers"]) if "tool_answers" in e else None,
                    answer_data_read=tuple(e["answer_data_read"]) if "answer_data_read" in e else None,
                    requests_raised=tuple(e["requests_raised"]) if "requests_raised" in e else None,
                    wait_for_calls=e.get("wait_for_calls"),
                    sequence=tuple(e["sequence"]) if "sequence" in e else None,
                    tool_metrics=tuple(e["tool_metrics"]) if "tool_metrics" in e else None,
                    run_statuses=tuple(e["run_statuses"]) if "run_statuses" in e else None,
                    stdout_contains=tuple(e.get("stdout_contains", [])),
                    lines={k: expect_doc.lc.key(k)[0] + 1 for k in expect_doc},
                ),
            )
        )
    runs = _one_golden_per_run(runs)
    support: list[Program] = []
    for k, file_name in enumerate(plain.get("support", [])):
        support_path = folder / file_name
        if not support_path.is_file():
            problems.append(
                Problem(
                    Location(path, _line_of(doc, ["support", k])),
                    f"support file {file_name} does not exist in {folder}",
                )
            )
        support.append(Program("python", support_path, support_path.with_name(support_path.name + ".out")))
    names = [r.name for r in runs]
    for r in runs:
        if names.count(r.name) > 1:
            problems.append(Problem(r.where, f"run name '{r.name}' is used more than once"))
    if problems:
        raise SourceError(*problems)
    return Scenario(
        name=name,
        folder=folder,
        title=plain["title"],
        summary=plain.get("summary", ""),
        rules=tuple(plain.get("rules", [])),
        known_defect=plain.get("known_defect"),
        runs=tuple(runs),
        since=plain.get("since"),
        support=tuple(support),
        variants=tuple(plain.get("variants", [])),
        replies_unseen=dict(plain.get("replies_unseen", {})),
        equivalent_mutants=tuple(plain.get("equivalent_mutants", [])),
    )


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
