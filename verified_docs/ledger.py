"""The ledger: which programs ran green in this build, fingerprinted so nothing stale ships.

Verification writes it; the render stage refuses to render an example whose program, section
or golden output is not in it with the same SHA-256; the guard checks every code block of the
built site against it. JSON, written atomically.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path
from types import MappingProxyType
from typing import Any

from verified_docs.errors import SourceError
from verified_docs.files import write_atomic
from verified_docs.reader_commands import try_command
from verified_docs.run.line_coverage import FileLines
from verified_docs.scenario.sections import WHOLE, ProgramView, Section, parse_sections, program_view, read_utf8
from verified_docs.scoped_memo import ScopedMemo
from verified_docs.verify.timeline import Message, mermaid, title
from verified_docs.verify.verdict import RunVerdict

DEFAULT_LEDGER = Path("build") / "verified-ledger.json"
# Why the ledger does not vouch for a file as it is now (:meth:`Ledger.doubt`), worded to follow
# the file's path in a message.
NOT_VERIFIED = "was not verified"
DID_NOT_PASS = "did not pass"
CHANGED = "changed after it was verified"
SCENARIO_CHANGED = "scenario.yaml changed after it was verified"


def sha256_text(text: str) -> str:
    """Hex SHA-256 of ``text`` encoded as UTF-8."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def fingerprint(code: str) -> str:
    """SHA-256 of a code block's text without leading or trailing blank lines, which is how a
    section, a golden output, a Markdown fence and a rendered ``<pre>`` all compare equal."""
    return sha256_text(code.strip("\n"))


def sha256_file(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@dataclass(frozen=True)
class Ledger:
    """Parsed ledger. ``programs`` maps a program path (posix, relative to the project root)
    to its entry: ``scenario``, ``language``, ``passed`` (every run passed), ``sha256`` of the
    file, ``scenario_sha256`` of the ``scenario.yaml`` its runs were checked against, ``sections`` (name -> fingerprint; ``"*"``, :data:`~verified_docs.scenario.sections.WHOLE`, for the whole
    program as a page shows it) and ``runs`` (run name -> ``passed``, ``golden``
    path, ``golden_sha256`` of the file, ``golden_text_sha256`` fingerprint, ``duration_s``,
    ``story``: the run's messages as :meth:`~verified_docs.verify.timeline.Message.to_json` lists, which its
    diagram draws) and
    ``lines`` (section name, or ``"*"`` for the whole program -> ``unrun``: 1-based lines of
    statements that executed in none of
    the scenario's runs and carry no ``# not run`` marker; ``not_run``: marked lines, which did
    not run; ``marked_ran``: marked lines that ran after all). ``lines`` is absent for a
    language whose runner cannot measure lines. ``names`` maps each global name of the file
    that was bound to a toolnexus module, class or function when a run's process exited to that
    object's qualified name (``{"Answer": "toolnexus.types.Answer"}``): what the file really
    imported, for the links from its code to the API reference."""

    toolnexus: str
    python: str
    programs: dict[str, dict[str, Any]]

    def doubt(self, rel: str, path: Path, *, run: str | None = None, scenario_file: Path | None = None) -> str | None:
        """None when this ledger vouches for the file at ``path`` (``rel``: its key, posix and
        relative to the project root) as it is now, else the first reason it does not, checked
        in this order: :data:`NOT_VERIFIED` (no entry), :data:`DID_NOT_PASS` (a run of it
        failed; with ``run``, also when that run is not recorded), :data:`CHANGED` (its SHA-256
        is not the file's, or the file is gone) and, with ``scenario_file``, :data:`SCENARIO_CHANGED`
        (the ``scenario.yaml`` its runs were checked against was edited since)."""
        entry = self.programs.get(rel)
        if entry is None:
            return NOT_VERIFIED
        if not entry["passed"] or (run is not None and not entry["runs"].get(run, {}).get("passed")):
            return DID_NOT_PASS
        if not Path(path).is_file() or sha256_file(path) != entry["sha256"]:
            return CHANGED
        if scenario_file is not None and entry.get("scenario_sha256") != sha256_file(scenario_file):
            return SCENARIO_CHANGED
        return None

    def passed_files(self) -> dict[str, str]:
        """Path (relative to the project root) -> SHA-256 of every program and support file that passed."""
        return {rel: entry["sha256"] for rel, entry in self.programs.items() if entry["passed"]}

    def verified_hashes(self) -> set[str]:
        """SHA-256 of every section text and golden output of a passed program, of the
        Mermaid text of each of its runs' diagrams (:meth:`diagram`), and of the command that
        runs each of its runs for a reader (:func:`~verified_docs.reader_commands.try_command`)."""
        out: set[str] = set()
        for rel, entry in self.programs.items():
            if entry["passed"]:
                out.update(entry["sections"].values())
                out.update(run["golden_text_sha256"] for run in entry["runs"].values())
                out.update(fingerprint(d) for d in (self.diagram(rel, name) for name in entry["runs"]) if d)
                out.update(fingerprint(try_command(entry["scenario"], name)) for name in entry["runs"])
        return out

    def story(self, program: str, run: str) -> tuple[Message, ...]:
        """The recorded messages of ``run`` of ``program`` (a path relative to the project
        root); empty when the run recorded none. Raises ``KeyError`` for an unknown program or
        run, ``ValueError`` for a malformed record."""
        return tuple(Message.from_json(m) for m in self.programs[program]["runs"][run].get("story", []))

    def diagram(self, program: str, run: str) -> str:
        """The Mermaid text of ``run``'s sequence diagram (:func:`~verified_docs.verify.timeline.mermaid`), drawn
        only from what this ledger keeps; "" when the run recorded no message."""
        story = self.programs[program]["runs"][run].get("story", [])
        if not story:
            return ""
        return _diagram(self.programs[program]["scenario"], run, Path(program).name, json.dumps(story, sort_keys=True))


@lru_cache(maxsize=1024)
def _diagram(scenario: str, run: str, program_name: str, story_json: str) -> str:
    """:meth:`Ledger.diagram`, memoised by the story's JSON: the guard asks for every run's
    diagram (:meth:`Ledger.verified_hashes`) of a ledger loaded anew on each author-loop save."""
    messages = tuple(Message.from_json(m) for m in json.loads(story_json))
    return mermaid(messages, title(scenario, run, messages), program_name)


@lru_cache(maxsize=512)
def _parsed(path: Path, text: str) -> tuple[Mapping[str, Section], ProgramView] | None:
    """The sections of the file ``path`` holding ``text`` (read-only: the memo shares them),
    and the whole program as a page shows it; None when the markers are malformed (verify
    reported it). Memoised by the text: the author loop writes the ledger of every run on
    every save."""
    try:
        return MappingProxyType(parse_sections(path, text)), program_view(path, text)
    except SourceError:
        return None


def _read_parsed(path: Path) -> tuple[Mapping[str, Section], ProgramView] | None:
    """:func:`_parsed` of the file as it is now; None too when it is not UTF-8."""
    try:
        return _parsed(Path(path), read_utf8(path))
    except SourceError:
        return None


def _fingerprints(path: Path) -> dict[str, str]:
    """Section name -> fingerprint, and :data:`WHOLE` -> the whole program's as a page shows it;
    none when the markers are malformed (verify reported it)."""
    parsed = _read_parsed(path)
    if parsed is None:
        return {}
    sections, view = parsed
    out = {name: fingerprint(s.text) for name, s in sections.items()}
    out[WHOLE] = fingerprint(view.text)
    return out


def _section_lines(path: Path, measured: FileLines | None) -> dict[str, dict[str, list[int]]] | None:
    """Per section of ``path``: which of its lines never ran, which are marked ``# not run``,
    and which are marked but ran anyway; None when the lines were not measured."""
    if measured is None:
        return None
    parsed = _read_parsed(path)
    if parsed is None:
        return {}
    sections, view = parsed
    bodies = {name: set(range(s.start_line + 1, s.end_line)) for name, s in sections.items()}
    # The page shows the whole program around each section, folded: every line of it counts.
    bodies[WHOLE] = set(view.file_lines)
    out = {}
    for name, body in bodies.items():
        out[name] = {
            "unrun": sorted((measured.statements & body) - measured.executed - measured.excluded),
            "not_run": sorted(measured.excluded & body - measured.executed),
            "marked_ran": sorted(measured.excluded & measured.executed & body),
        }
    return out


def _measured(verdicts: list[RunVerdict]) -> dict[tuple[str, str, str], FileLines]:
    """(scenario, language, real path) -> the lines that ran in any of that scenario's runs."""
    out: dict[tuple[str, str, str], FileLines] = {}
    for v in verdicts:
        for real, lines in v.lines.items():
            key = (v.scenario.name, v.language, real)
            out[key] = out[key].merged(lines) if key in out else lines
    return out


def _names(verdicts: list[RunVerdict], path: Path) -> dict[str, str]:
    """The toolnexus names bound in the file at ``path`` in any of ``verdicts`` (see :class:`Ledger`)."""
    real = _realpath(str(path))
    out: dict[str, str] = {}
    for v in verdicts:
        out.update(v.names.get(real, {}))
    return dict(sorted(out.items()))


_REALPATHS: ScopedMemo[str] = ScopedMemo()


def _realpath(path: str) -> str:
    """``os.path.realpath``, memoised within one :func:`build`: a build resolves each
    program's and golden file's path several times, each an ``lstat`` per folder."""
    return _REALPATHS.get(path, lambda: os.path.realpath(path))


def _relative(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` (resolved already: :func:`build` resolves it once)."""
    return Path(_realpath(str(path))).relative_to(root).as_posix()


def _run_entry(v: RunVerdict, root: Path) -> dict[str, Any]:
    """What the ledger keeps of one run: whether it passed, its golden file and its story."""
    golden_path = v.program.golden_path
    golden_text = golden_path.read_text(encoding="utf-8", errors="replace") if golden_path.is_file() else ""
    return {
        "passed": v.passed,
        "golden": _relative(golden_path, root),
        "golden_sha256": sha256_file(golden_path) if golden_path.is_file() else None,
        "golden_text_sha256": fingerprint(golden_text),
        "duration_s": round(v.duration_s, 3),
        "story": [m.to_json() for m in v.story],
    }


def _program_entries(verdicts: list[RunVerdict], root: Path) -> dict[str, dict[str, Any]]:
    """Entry per program (by path relative to ``root``), its runs in it; it passes only when
    every one of its runs passed."""
    programs: dict[str, dict[str, Any]] = {}
    paths: dict[str, Path] = {}
    for v in verdicts:
        path = v.program.path
        rel = _relative(path, root)
        if rel not in programs:  # a program several runs execute: read its files once
            paths[rel] = path
            programs[rel] = {
                "scenario": v.scenario.name,
                "language": v.language,
                "passed": True,
                "sha256": sha256_file(path),
                # What the evidence was checked against: pages that state it (evidence boxes,
                # claims) refuse a scenario.yaml edited after this verification.
                "scenario_sha256": sha256_file(v.scenario.folder / "scenario.yaml"),
                "sections": {},
                "runs": {},
            }
        entry = programs[rel]
        entry["runs"][v.run.name] = _run_entry(v, root)
        entry["names"] = {**entry.get("names", {}), **_names([v], path)}
        entry["passed"] = entry["passed"] and v.passed
    for rel, entry in programs.items():
        entry["sections"] = _fingerprints(paths[rel]) if entry["passed"] else {}
    return programs


def _support_entries(verdicts: list[RunVerdict], root: Path) -> dict[str, dict[str, Any]]:
    """Entry per support file (the files the programs import, by path relative to ``root``):
    it passes when every run of its scenario passed."""
    by_scenario: dict[str, list[RunVerdict]] = {}
    for v in verdicts:
        by_scenario.setdefault(v.scenario.name, []).append(v)
    entries: dict[str, dict[str, Any]] = {}
    for runs in by_scenario.values():
        scenario = runs[0].scenario
        passed = all(v.passed for v in runs)
        for support in scenario.support:
            entries[_relative(support.path, root)] = {
                "scenario": scenario.name,
                "language": support.language,
                "passed": passed,
                "sha256": sha256_file(support.path),
                "runs": {},
                "sections": _fingerprints(support.path) if passed else {},
                "names": _names(runs, support.path),
            }
    return entries


def build(verdicts: list[RunVerdict], root: Path) -> Ledger:
    """A ledger of ``verdicts``; paths are made relative to ``root``. A program that several
    runs execute passes only when every one of its runs passed; each run keeps its own output.
    Every entry whose lines were measured says, per section, which ran (see :func:`_section_lines`)."""
    root = Path(root).resolve()
    with _REALPATHS.kept():  # for this build only: links may change between builds
        programs = _program_entries(verdicts, root)
        programs.update(_support_entries(verdicts, root))
        measured = _measured(verdicts)
        for rel, entry in programs.items():
            path = root / rel
            lines = _section_lines(path, measured.get((entry["scenario"], entry["language"], _realpath(str(path)))))
            if lines is not None:
                entry["lines"] = lines
    return Ledger(toolnexus=version("toolnexus"), python=platform.python_version(), programs=programs)


def merge(earlier: Ledger | None, new: Ledger, scenarios: set[str]) -> Ledger:
    """``new`` (from verifying only ``scenarios``) plus every entry of ``earlier`` that belongs
    to another scenario, so a partial run (``verify --only``) does not forget the rest. Only
    for the same toolnexus and Python; the hook still checks each kept entry's SHA-256 against
    its file, so an entry that went stale since cannot reach a page."""
    if earlier is None or (earlier.toolnexus, earlier.python) != (new.toolnexus, new.python):
        return new
    kept = {rel: e for rel, e in earlier.programs.items() if e["scenario"] not in scenarios}
    return Ledger(new.toolnexus, new.python, {**kept, **new.programs})


def durations(path: Path) -> dict[str, float]:
    """Seconds each scenario took in the ledger at ``path`` (its runs summed); empty when there
    is no readable ledger. Used to start the slowest scenarios first."""
    try:
        programs = load(path).programs
    except (OSError, ValueError, KeyError):
        return {}
    out: dict[str, float] = {}
    for entry in programs.values():
        out[entry["scenario"]] = out.get(entry["scenario"], 0.0) + sum(r["duration_s"] for r in entry["runs"].values())
    return out


def save(ledger: Ledger, path: Path) -> None:
    """Write ``ledger`` as JSON, atomically."""
    write_atomic(
        Path(path),
        json.dumps(
            {"toolnexus": ledger.toolnexus, "python": ledger.python, "programs": ledger.programs},
            indent=2,
            sort_keys=True,
        )
        + "\n",
    )


def load(path: Path) -> Ledger:
    """Read a ledger. Raises ``FileNotFoundError`` with a hint when there is none."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(
            f"{path}: no verification ledger; run `nox -s docs` (or "
            f"`python -m verified_docs verify`) before building the site"
        )
    data = json.loads(path.read_text(encoding="utf-8"))
    return Ledger(data["toolnexus"], data["python"], data["programs"])
