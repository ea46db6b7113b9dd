"""Parse one ``scenario.yaml`` into a :class:`~verified_docs.scenario.records.Scenario`.

The YAML is read round-trip (for its line numbers) and validated against ``schema.json``
(JSON Schema, beside this module); then each run's model script, programs and ``expect`` are
read into records, and what the schema cannot say is checked: one action per step, the
evidence floor, files that exist, run names used once. Every error names the YAML file and
the line of the offending value. ruamel.yaml and jsonschema are imported here only: a rebuild
that finds every scenario already parsed (see ``cache.ParsedScenarios``) never imports this
module.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError

from verified_docs.errors import Location, Problem, SourceError
from verified_docs.scenario.records import SCENARIO_FILE, Expect, Program, Run, Scenario, Step, ToolCallStep

DEFAULT_TIMEOUT_S = 30.0
STEP_ACTIONS = ("call", "calls", "reply", "quote_last_tool_result")
# The evidence floor: what every run must state, so a page's account of a run can never rest on
# an exit code alone. A run that talks to the model states how often each tool ran, what the
# model was shown, how often wait_for was called (0 is a statement too) and how each run ended;
# a run with no model script states that it made no model request.
FLOOR_WITH_MODEL = ("tool_runs", "tool_results_shown", "wait_for_calls", "run_statuses")
FLOOR_WITHOUT_MODEL = ("model_requests",)


def _schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(resources.files(__package__).joinpath("schema.json").read_text("utf-8"))
    return schema


def _line_of(doc: Any, path: list[Any]) -> int:
    """1-based line of the value at ``path`` in a ruamel document (the nearest known parent)."""
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


def _error_path(error: jsonschema.ValidationError) -> list[Any]:
    """Where to point for a schema error: an unexpected key's own line, else the value's."""
    path = list(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = error.schema.get("properties", {})
        extra = [k for k in error.instance if k not in allowed]
        if extra:
            path.append(extra[0])
    return path


def _read_valid(path: Path, folder: Path) -> tuple[Any, dict[str, Any]]:
    """``path`` read round-trip (for lines) and as plain JSON data that the schema accepts.
    Raises :class:`SourceError` when the file is missing, is not YAML, or breaks the schema
    (every violation at its line)."""
    if not path.is_file():
        raise SourceError.at(folder, 0, f"no {SCENARIO_FILE} in scenario folder")
    try:
        doc = YAML(typ="rt").load(path.read_text(encoding="utf-8"))
    except MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        raise SourceError.at(path, (mark.line + 1) if mark else 0, f"invalid YAML: {e.problem or e}") from None
    plain = json.loads(json.dumps(doc))  # ruamel containers -> plain JSON data for the validator
    if isinstance(plain, dict) and "since" in plain:
        raise SourceError(
            Problem(
                Location(path, _line_of(doc, ["since"])),
                "since: is measured, not written: delete this line",
                ("`nox -s release-matrix -- --only <scenario>` records the first release it passes on",),
            )
        )
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
    return doc, plain


@dataclass
class _Reader:
    """One schema-valid ``scenario.yaml`` being read into records: ``doc`` is its round-trip
    document (for lines), ``folder`` the scenario's; ``problems`` gathers what is wrong, in
    the order found, so that every one is reported at once."""

    path: Path
    folder: Path
    doc: Any
    problems: list[Problem] = field(default_factory=list)

    def at(self, *keys: Any) -> Location:
        return Location(self.path, _line_of(self.doc, list(keys)))

    def program(self, language: str, file_name: str, where: Location, what: str) -> Program:
        """The program (or support file) ``file_name`` of the folder, in ``language``; a problem
        at ``where`` (``<what> <file_name> does not exist``) when there is no such file."""
        program_path = self.folder / file_name
        if not program_path.is_file():
            self.problems.append(Problem(where, f"{what} {file_name} does not exist in {self.folder}"))
        return Program(language, program_path, program_path.with_name(program_path.name + ".out"))


def _step(reader: _Reader, i: int, j: int, raw: dict[str, Any]) -> Step | None:
    """Step ``j`` of run ``i``'s model script, or None (and a problem) when its actions do not fit."""
    where = reader.at("runs", i, "model", j)
    actions = [a for a in STEP_ACTIONS if a in raw]
    if len(actions) != 1:
        reader.problems.append(
            Problem(
                where,
                f"runs/{i}/model/{j}: a step needs exactly one of "
                f"{', '.join(STEP_ACTIONS)}; got {', '.join(actions) or 'none'}",
            )
        )
        return None
    if "say" in raw and not ("call" in raw or "calls" in raw):
        reader.problems.append(
            Problem(where, f"runs/{i}/model/{j}: 'say' goes with call or calls (text beside a tool call)")
        )
        return None
    calls = [raw["call"]] if "call" in raw else raw.get("calls", [])
    return Step(
        where=where,
        calls=tuple(ToolCallStep(c["tool"], c.get("arguments", {}), c.get("id")) for c in calls),
        reply=raw.get("reply"),
        quote_last_tool_result=bool(raw.get("quote_last_tool_result")),
        when_last_message=raw.get("when_last_message"),
        say=raw.get("say"),
    )


def _programs(reader: _Reader, i: int, raw: dict[str, str]) -> dict[str, Program]:
    """Run ``i``'s program per language (a problem for each file that does not exist)."""
    return {
        lang: reader.program(lang, file_name, reader.at("runs", i, "programs", lang), "program")
        for lang, file_name in raw.items()
    }


def _check_floor(reader: _Reader, i: int, raw: dict[str, Any]) -> None:
    """A problem when run ``i``'s ``expect`` states less than :data:`FLOOR_WITH_MODEL` (or,
    with no model script, :data:`FLOOR_WITHOUT_MODEL`)."""
    floor = FLOOR_WITH_MODEL if raw["model"] else FLOOR_WITHOUT_MODEL
    below = [k for k in floor if k not in raw["expect"]]
    if below:
        who = "talks to the model" if raw["model"] else "has no model script"
        reader.problems.append(
            Problem(
                reader.at("runs", i, "expect"),
                f"runs/{i}/expect: evidence below the floor: a run that {who} must state "
                f"{', '.join(floor)}; missing {', '.join(below)}",
            )
        )


def _listed(raw: dict[str, Any], key: str) -> tuple[Any, ...] | None:
    """The evidence item ``key`` (a YAML list) as a tuple, or None when it is not stated."""
    return tuple(raw[key]) if key in raw else None


def _expect(reader: _Reader, i: int, raw: dict[str, Any]) -> Expect:
    """Run ``i``'s ``expect``: each evidence item stated (None for one that is not), with its line."""
    expect_doc = reader.doc["runs"][i]["expect"]
    return Expect(
        where=reader.at("runs", i, "expect"),
        exit_code=raw.get("exit_code", 0),
        model_requests=raw.get("model_requests"),
        transcript_balanced=raw.get("transcript_balanced"),
        tool_results_shown=_listed(raw, "tool_results_shown"),
        tool_runs=raw.get("tool_runs"),
        tool_answers=_listed(raw, "tool_answers"),
        answer_data_read=_listed(raw, "answer_data_read"),
        requests_raised=_listed(raw, "requests_raised"),
        wait_for_calls=raw.get("wait_for_calls"),
        sequence=_listed(raw, "sequence"),
        tool_metrics=_listed(raw, "tool_metrics"),
        run_statuses=_listed(raw, "run_statuses"),
        stdout_contains=tuple(raw.get("stdout_contains", [])),
        lines={k: expect_doc.lc.key(k)[0] + 1 for k in expect_doc},
    )


def _run(reader: _Reader, i: int, raw: dict[str, Any], default_timeout: float) -> Run:
    """Run ``i`` of the scenario, its problems added to ``reader``'s."""
    steps = [_step(reader, i, j, s) for j, s in enumerate(raw["model"])]
    programs = _programs(reader, i, raw["programs"])
    _check_floor(reader, i, raw)
    return Run(
        where=reader.at("runs", i),
        name=raw["name"],
        programs=programs,
        args=tuple(raw.get("args", [])),
        timeout_s=float(raw.get("timeout", default_timeout)),
        steps=tuple(s for s in steps if s is not None),
        expect=_expect(reader, i, raw["expect"]),
    )


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


def _repeated_names(runs: list[Run]) -> list[Problem]:
    """A problem at each run whose name another run of the scenario has too."""
    names = [r.name for r in runs]
    return [Problem(r.where, f"run name '{r.name}' is used more than once") for r in runs if names.count(r.name) > 1]


def parse_scenario(folder: Path, root: Path, prefix: str) -> Scenario:
    """Read ``folder/scenario.yaml`` (``folder`` resolved); the scenario is named ``prefix`` +
    the folder's path below ``root``.

    Raises :class:`SourceError` for a missing file, YAML syntax errors, schema violations, steps
    with no or several actions, evidence below the floor, programs and support files that do
    not exist, and run names used twice: every problem found, each at its line.
    """
    path = folder / SCENARIO_FILE
    doc, plain = _read_valid(path, folder)
    name = prefix + folder.relative_to(Path(root).resolve()).as_posix()
    reader = _Reader(path, folder, doc)
    default_timeout = float(plain.get("timeout", DEFAULT_TIMEOUT_S))
    runs = _one_golden_per_run([_run(reader, i, raw, default_timeout) for i, raw in enumerate(plain["runs"])])
    support = [
        reader.program("python", file_name, reader.at("support", k), "support file")
        for k, file_name in enumerate(plain.get("support", []))
    ]
    problems = reader.problems + _repeated_names(runs)
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
        support=tuple(support),
        variants=tuple(plain.get("variants", [])),
        replies_unseen=dict(plain.get("replies_unseen", {})),
        equivalent_mutants=tuple(plain.get("equivalent_mutants", [])),
    )
