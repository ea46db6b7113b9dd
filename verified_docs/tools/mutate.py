"""Mutation testing of the examples: does verification catch the mistakes authors make?

Each operator is a careless edit a person could plausibly make to a snippet (answer declined
instead of accepted, the reply under another key, a tool ignoring ``ctx.answer``, a resume that
replays instead of rewinding, a dropped ``await``, a printed result that is not the real one).
Every operator is applied at its first match in every program and support file of a scenario,
in a copy of the scenario, which is then verified the normal way. A mutant that still passes is
a *survivor*: that scenario's evidence is too weak.
"""

from __future__ import annotations

import ast
import hashlib
import re
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from verified_docs.scenario.load import load_scenario
from verified_docs.scenario.records import Scenario
from verified_docs.verify.scenarios import verify_scenario


@dataclass(frozen=True)
class Operator:
    """``pattern`` is replaced by ``replacement`` at its first match in a file."""

    name: str
    pattern: re.Pattern[str]
    replacement: str


OPERATORS = (
    Operator("answer declined instead of accepted", re.compile(r"\bok=True\b"), "ok=False"),
    Operator("reply under another key", re.compile(r'\bdata=\{"(\w+)"'), r'data={"\1_renamed"'),
    Operator("tool ignores ctx.answer", re.compile(r"ctx\.answer\.data(\[[^\]]+\]|\.get\([^)]*\))"), '"<hard-coded>"'),
    Operator("resume replays instead of rewinding", re.compile(r"history=(\w+)\[:\w+\]"), r"history=\1"),
    Operator("dropped await", re.compile(r"\bawait (?=[\w.]+\.(run|ask|resume|execute)\()"), ""),
    Operator("hard-coded result printed", re.compile(r"\{(\w+)\.text\}"), "<hard-coded>"),
    Operator("hard-coded status printed", re.compile(r"\{(\w+)\.status\}"), "<hard-coded>"),
)
THRESHOLD = 90.0  # percent of the mutants of each scenario that its checks must kill


@dataclass(frozen=True)
class Mutant:
    """One applied operator: the file (relative to the scenario folder) and 1-based line."""

    scenario: str
    operator: str
    file: str
    line: int
    before: str
    after: str
    killed: bool

    def describe(self) -> str:
        return f"{self.scenario}/{self.file}:{self.line}: {self.operator}: {self.before.strip()!r} -> {self.after.strip()!r}"


def _in_comment(source: str, offset: int) -> bool:
    """Whether ``offset`` lies in a ``#`` comment (an edit there changes no behaviour)."""
    line_start = source.rfind("\n", 0, offset) + 1
    return "#" in source[line_start:offset] and source[line_start:offset].lstrip().startswith("#")


def _docstrings(source: str) -> list[tuple[int, int]]:
    """The (start, end) offsets in ``source`` of its module, class and function docstrings: an
    edit there changes no behaviour either (a docstring's ``ok=True`` survived as a mutant).
    None when the file does not parse: its mutants then fail the normal way."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    spans = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) or not node.body:
            continue
        first = node.body[0]
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
            # ast gives UTF-8 byte columns; the docstrings here are ASCII up to their end column.
            end_line = first.end_lineno or first.lineno
            spans.append(
                (starts[first.lineno - 1] + first.col_offset, starts[end_line - 1] + (first.end_col_offset or 0))
            )
    return spans


def first_match(op: Operator, source: str) -> re.Match[str] | None:
    """``op``'s first match in ``source`` outside comments and docstrings, or None."""
    docstrings = _docstrings(source)
    for m in op.pattern.finditer(source):
        if not _in_comment(source, m.start()) and not any(a <= m.start() < b for a, b in docstrings):
            return m
    return None


def _candidates(scenario: Scenario) -> list[tuple[Operator, Path, int, str, str]]:
    files = sorted(
        {p.path for run in scenario.runs for p in run.programs.values()} | {p.path for p in scenario.support}
    )
    out = []
    for path in files:
        source = path.read_text(encoding="utf-8")
        for op in OPERATORS:
            m = first_match(op, source)
            if m is None:
                continue
            mutated = source[: m.start()] + m.expand(op.replacement) + source[m.end() :]
            line = source.count("\n", 0, m.start()) + 1
            out.append((op, path, line, source.splitlines()[line - 1], mutated))
    return out


def _run_mutant(scenario: Scenario, op: Operator, path: Path, line: int, before: str, mutated: str) -> Mutant:
    with tempfile.TemporaryDirectory(prefix="verified-docs-mutant-") as tmp:
        root = Path(tmp) / "snippets"
        target = root / scenario.name
        shutil.copytree(scenario.folder, target)
        rel = path.relative_to(scenario.folder)
        (target / rel).write_text(mutated, encoding="utf-8")
        copy = load_scenario(target, root)
        killed = not all(v.passed for v in verify_scenario(copy))
    after = mutated.splitlines()[line - 1] if line <= len(mutated.splitlines()) else ""
    return Mutant(scenario.name, op.name, rel.as_posix(), line, before, after, killed)


def mutate_all(scenarios: list[Scenario], jobs: int = 2) -> list[Mutant]:
    """Generate and verify every mutant of ``scenarios``, ``jobs`` at a time."""
    work = [(s, *c) for s in scenarios for c in _candidates(s)]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(lambda w: _run_mutant(*w), work))


def scores(mutants: list[Mutant]) -> dict[str, tuple[int, int]]:
    """Scenario -> (killed, generated)."""
    out: dict[str, tuple[int, int]] = {}
    for m in mutants:
        killed, total = out.get(m.scenario, (0, 0))
        out[m.scenario] = (killed + m.killed, total + 1)
    return out


@dataclass(frozen=True)
class Score:
    """One scenario's mutation result: ``killed`` of ``counted`` mutants (``excused``: the
    survivors the scenario names as equivalent, left out of the count), the ``survivors`` that
    count against it, and ``problems`` (equivalent-mutant entries that match no survivor)."""

    scenario: str
    killed: int
    counted: int
    survivors: tuple[Mutant, ...]
    excused: tuple[Mutant, ...]
    problems: tuple[str, ...]

    @property
    def percent(self) -> float:
        return 100.0 * self.killed / self.counted if self.counted else 0.0

    def failures(self, threshold: float = THRESHOLD) -> list[str]:
        """Why this scenario fails the mutation check (empty: it passes)."""
        out = list(self.problems)
        if not self.counted:
            out.append(
                f"{self.scenario}: no careless edit applies to its programs; the mutation check cannot vouch "
                "for its evidence"
            )
        elif self.percent < threshold:
            out.append(
                f"{self.scenario}: {self.percent:.1f}% of mutants killed ({self.killed}/{self.counted}), "
                f"below {threshold:g}%; survivors:"
            )
            out += ["  " + m.describe() for m in self.survivors]
        return out


def score(scenario: Scenario, mutants: list[Mutant]) -> Score:
    """Score ``mutants`` of ``scenario`` against its ``equivalent_mutants`` list (matched by
    operator name and file)."""
    mine = [m for m in mutants if m.scenario == scenario.name]
    listed = [(e["operator"], e["file"]) for e in scenario.equivalent_mutants]
    excused = tuple(m for m in mine if not m.killed and (m.operator, m.file) in listed)
    survivors = tuple(m for m in mine if not m.killed and m not in excused)
    problems = tuple(
        f"{scenario.yaml_path}:1: equivalent_mutants lists {op!r} in {file}, but no such mutant survived "
        "(it was killed, or the edit no longer applies): remove the entry"
        for op, file in listed
        if not any((m.operator, m.file) == (op, file) for m in excused)
    )
    counted = len(mine) - len(excused)
    return Score(scenario.name, sum(m.killed for m in mine), counted, survivors, excused, problems)


MUTATION_CACHE = Path("build") / "cache" / "mutation"


def entry_path(scenario: Scenario, cache_dir: Path, operators: bytes | None = None) -> Path:
    """Where ``scenario``'s mutants are stored in ``cache_dir``: named by the verification
    cache's content key and the SHA-256 of ``operators`` (default: this module's source)."""
    from verified_docs.cache import ResultCache

    digest = hashlib.sha256(Path(__file__).read_bytes() if operators is None else operators).hexdigest()[:16]
    return cache_dir / f"{ResultCache.open(cache_dir).key(scenario, None)}-{digest}.json"


def check_scenario(scenario: Scenario, cache_dir: Path | None, jobs: int = 2) -> Score:
    """Mutate and verify ``scenario``, then score it. With ``cache_dir``, a scenario whose files,
    toolnexus, interpreter, machinery and mutation operators are as when it was last mutated
    is scored from the stored mutants (the verification cache's content key and a digest of
    this module; a failing score is stored too, since it is as much a function of that content
    as a passing one). So an entry restored from another commit is read only where it holds."""
    import json

    from verified_docs.files import write_atomic

    path = None if cache_dir is None else entry_path(scenario, Path(cache_dir))
    if path is not None:
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
            return score(scenario, [Mutant(**m) for m in stored])
        except (OSError, ValueError, TypeError):
            pass
    mutants = mutate_all([scenario], jobs=jobs)
    if path is not None:
        write_atomic(path, json.dumps([m.__dict__ for m in mutants], indent=1) + "\n")
    return score(scenario, mutants)
