"""The frozen records a scenario is read into: what every later stage gets from ``scenario``.

A :class:`Scenario` holds its :class:`Run` records in order; each run has its
:class:`Program` per language, its model script (:class:`Step`, with :class:`ToolCallStep`
for each tool call) and the evidence it must show (:class:`Expect`). Every record that comes
from a line of ``scenario.yaml`` carries its :class:`~verified_docs.errors.Location`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from verified_docs.errors import Location

SCENARIO_FILE = "scenario.yaml"


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
