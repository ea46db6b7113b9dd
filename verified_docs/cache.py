"""A content-addressed cache of passed verifications, so a rebuild with nothing changed runs
no snippet.

One entry per scenario and set of languages. Its key is the SHA-256 of everything that could
change a verdict: every file in the scenario's folder (programs, golden outputs, the scenario
file, data) and its support files, the languages asked for, the installed toolnexus (version
and source files), the interpreter (version and path), and the verification machinery's own
code (this package). An entry also lists the files of modules the programs imported from
outside their folder (seen by the tracer at exit) with their SHA-256; a change there is a miss.
Only a scenario whose every run passed is stored; a failure always runs again. Entries are
written atomically and are plain JSON under ``build/cache/verified/``; a damaged entry counts
as a miss.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import platform
import sys
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from verified_docs.files import write_atomic
from verified_docs.run.line_coverage import FileLines
from verified_docs.scenario.digest import content_digest, digest_files, files_under
from verified_docs.scenario.load import load_scenario, loaded_unchanged, remember
from verified_docs.scenario.records import Scenario
from verified_docs.verify.scenarios import verify_all
from verified_docs.verify.timeline import Message
from verified_docs.verify.verdict import RunVerdict

DEFAULT_DIR = Path("build") / "cache" / "verified"
PACKAGE = Path(__file__).parent

# What decides a verdict, relative to PACKAGE: reading the scenario, running its programs (mock
# model, tracer, fork server), checking what they did, the error shape, the file writer, and
# this cache's own entries. Render, site, release, serve and tools decide none: editing them
# keeps every entry.
# tests/test_cache.py checks that these modules import nothing outside this list.
VERDICT_PATH = ("scenario", "run", "verify", "errors.py", "files.py", "scoped_memo.py", "cache.py")
# What decides a page's fence pass besides its own files: the fence plugin, its records and the
# file writer they go through.
FENCE_PATH = ("fences", "errors.py", "files.py")


def machinery_digest(parts: tuple[str, ...] = VERDICT_PATH) -> str:
    """Hex SHA-256 over every file of ``parts`` (folders or files of this package, relative to
    :data:`PACKAGE`; by default :data:`VERDICT_PATH`): a change there invalidates every entry
    keyed by it, a change elsewhere in the package none."""
    h = hashlib.sha256()
    for part in parts:
        path = PACKAGE / part
        digest_files(files_under(path) if path.is_dir() else [path], PACKAGE, h)
    return h.hexdigest()


def environment_digest() -> str:
    """SHA-256 of the installed toolnexus (its version and the content of every file it
    installed, so an edit in site-packages without a new version counts) and the interpreter
    verifying (version and path)."""
    h = hashlib.sha256(json.dumps([sys.version, sys.executable, platform.machine()]).encode())
    try:
        dist = distribution("toolnexus")
    except PackageNotFoundError:
        h.update(b"toolnexus not installed")
        return h.hexdigest()
    h.update(dist.version.encode())
    for file in sorted(dist.files or [], key=str):
        path = Path(file.locate())
        if path.suffix == ".py" and path.is_file():
            h.update(str(file).encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


@dataclass(frozen=True)
class ResultCache:
    """Passed verdicts by content key, under ``folder``. ``context`` is the part of every key
    that does not depend on the scenario (machinery, toolnexus, interpreter); computed once."""

    folder: Path
    context: str
    # Entries read in this process, by key, with the file's inode, size and modification time then:
    # the author loop asks for every scenario's entry on every save (a rewritten file is read again).
    _read: dict[str, tuple[tuple[int, int, int], dict]] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def open(cls, folder: Path) -> "ResultCache":
        """A cache in ``folder`` (created on first write) keyed for this interpreter and machinery."""
        return cls(Path(folder), machinery_digest() + environment_digest())

    def key(self, scenario: Scenario, languages: tuple[str, ...] | None) -> str:
        """Hex SHA-256 of the scenario's files, its support files, ``languages`` and the context."""
        h = hashlib.sha256(self.context.encode())
        h.update(json.dumps(sorted(languages) if languages else None).encode())
        h.update(content_digest(scenario).encode())
        return h.hexdigest()

    def get(self, key: str, scenario: Scenario) -> list[RunVerdict] | None:
        """The verdicts stored under ``key`` (see :meth:`key`), or ``None`` (a miss, or a damaged entry)."""
        path = self.folder / f"{key}.json"
        try:
            st = path.stat()
            seen = self._read.get(key)
            if seen is not None and seen[0] == (st.st_ino, st.st_mtime_ns, st.st_size):
                entry = seen[1]
            else:
                entry = json.loads(path.read_text(encoding="utf-8"))
                self._read[key] = ((st.st_ino, st.st_mtime_ns, st.st_size), entry)
            for dep, digest in entry.get("imports", {}).items():
                if hashlib.sha256(Path(dep).read_bytes()).hexdigest() != digest:
                    return None  # a module it imported from outside its folder changed
            runs = {run.name: run for run in scenario.runs}
            return [
                RunVerdict(
                    scenario,
                    runs[r["run"]],
                    r["language"],
                    runs[r["run"]].programs[r["language"]],
                    (),
                    r["stdout"],
                    r["duration_s"],
                    own_s=r["own_s"],
                    imports=tuple(r["imports"]),
                    lines={f: FileLines.from_json(x) for f, x in r["lines"].items()},
                    story=tuple(Message.from_json(m) for m in r["story"]),
                    slept_s=r["slept_s"],
                    names=r["names"],
                )
                for r in entry["runs"]
            ]
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, scenario: Scenario, verdicts: list[RunVerdict]) -> bool:
        """Store ``verdicts`` under ``key`` when every one passed (failures are never stored);
        returns whether it did. Take ``key`` before verifying, so a file edited during the run
        cannot get the earlier content's verdict."""
        if not verdicts or not all(v.passed for v in verdicts):
            return False
        folder = scenario.folder.resolve()
        outside = sorted(
            {f for v in verdicts for f in v.imports if folder not in Path(f).parents and Path(f).is_file()}
        )
        entry = {
            "scenario": scenario.name,
            "imports": {f: hashlib.sha256(Path(f).read_bytes()).hexdigest() for f in outside},
            "runs": [
                {
                    "run": v.run.name,
                    "language": v.language,
                    "stdout": v.stdout,
                    "duration_s": v.duration_s,
                    "own_s": v.own_s,
                    "imports": list(v.imports),
                    "lines": {f: x.to_json() for f, x in v.lines.items()},
                    "story": [m.to_json() for m in v.story],
                    "slept_s": v.slept_s,
                    "names": v.names,
                }
                for v in verdicts
            ],
        }
        write_atomic(self.folder / f"{key}.json", json.dumps(entry, indent=1) + "\n")
        return True


def verify_cached(
    scenarios: list[Scenario],
    languages: tuple[str, ...] | None,
    cache: ResultCache | None,
    *,
    jobs: int | None = None,
    estimates: dict[str, float] | None = None,
    warm: bool = True,
) -> tuple[dict[str, list[RunVerdict]], set[str]]:
    """Verdicts by scenario name (in the order given) and the names answered from ``cache``.

    Scenarios with a stored entry for their current content are not run; the others are
    verified (``jobs`` at a time, longest by ``estimates`` first, ``warm`` as
    :func:`~verified_docs.verify.verdict.verify_all`) and stored when every run passed.
    ``cache=None`` runs all.
    """
    if cache is None:
        return verify_all(scenarios, languages, jobs=jobs, estimates=estimates, warm=warm), set()
    keys = {s.name: cache.key(s, languages) for s in scenarios}
    hits = {s.name: cache.get(keys[s.name], s) for s in scenarios}
    todo = [s for s in scenarios if hits[s.name] is None]
    fresh = verify_all(todo, languages, jobs=jobs, estimates=estimates, warm=warm)
    for s in scenarios:
        if s.name in fresh:
            cache.put(keys[s.name], s, fresh[s.name])
    by_scenario = {s.name: hit if (hit := hits[s.name]) is not None else fresh[s.name] for s in scenarios}
    return by_scenario, {name for name, verdicts in hits.items() if verdicts is not None}


PARSED_DIR = Path("build") / "cache" / "parsed"


@dataclass(frozen=True)
class ParsedScenarios:
    """Scenarios as parsed before, kept on disk (pickles under ``folder``) by the SHA-256 of
    their folder's files, the interpreter and the machinery: round-trip YAML parsing and schema
    checks are most of what a rebuild with nothing changed would spend before MkDocs. Use its
    :meth:`load` as ``discover_project``'s loader. A damaged pickle is parsed again."""

    folder: Path
    context: str

    @classmethod
    def open(cls, folder: Path) -> "ParsedScenarios":
        return cls(Path(folder), machinery_digest() + sys.version)

    def load(self, scenario_folder: Path, root: Path, prefix: str) -> Scenario:
        """:func:`~verified_docs.scenario.load.load_scenario`, answered from this process's
        memory while the folder's files are unchanged (the author loop discovers every scenario
        on every save), else from disk when this exact folder content was parsed before;
        raises what it raises."""
        known = loaded_unchanged(scenario_folder, root, prefix)
        if known is not None:
            return known
        scenario_folder = Path(scenario_folder).resolve()
        h = hashlib.sha256(f"{self.context}\0{scenario_folder}\0{Path(root).resolve()}\0{prefix}".encode())
        digest_files(files_under(scenario_folder), scenario_folder, h)
        path = self.folder / f"{h.hexdigest()}.pickle"
        try:
            scenario = pickle.loads(path.read_bytes())
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
            scenario = load_scenario(scenario_folder, root, prefix)
            write_atomic(path, pickle.dumps(scenario, protocol=pickle.HIGHEST_PROTOCOL))
            return scenario
        remember(scenario_folder, root, prefix, scenario)  # the render stage, in this process, reads it too
        return scenario
