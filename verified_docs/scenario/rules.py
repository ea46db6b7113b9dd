"""The SPEC §10 rules (``rules/spec-10.yaml``): where each comes from, what the Python port
does with it, and which scenarios demonstrate it.

Every rule names its sources (documents declared once at the top of the file: a SPEC version
by commit, ADR-0026, the upstream changelog, or this site's own measurement) and the Python
port's status: ``follows`` or ``departs`` (citing ``file:line`` of the installed toolnexus,
each with a piece of text that line must hold) or ``lacks`` (naming what is absent). A rule the
port departs from names the scenarios that assert the departure. Scenarios cite rules in their
``rules:`` list; a page shows a scenario when it holds one of its directives.
"""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError

from verified_docs.errors import Location, Problem, SourceError
from verified_docs.scenario.records import Scenario

RULES_FILE = Path("rules") / "spec-10.yaml"
STATUSES = ("follows", "departs", "lacks")
MAX_QUOTE_WORDS = 12  # a quote is a short clause with attribution, never a paragraph
_RULE_KEYS = {"id", "title", "rule", "sources", "python", "code", "note", "asserted_by", "elsewhere", "absent"}
_REQUIRED = ("id", "title", "rule", "sources", "python")
_CODE_AT = re.compile(r"^(toolnexus/[\w/]+\.py):([1-9][0-9]*)$")


@dataclass(frozen=True)
class Document:
    """A citable document: ``id`` as rules refer to it, a ``name`` for the page, its ``url``
    (None for this site's own measurement)."""

    id: str
    name: str
    url: str | None


@dataclass(frozen=True)
class Source:
    """Where a rule is written: the document, the place in it, and optionally a short quote."""

    document: Document
    where: str
    quote: str | None


@dataclass(frozen=True)
class CodeRef:
    """``at`` is ``toolnexus/<file>.py:<line>`` in the installed package; ``has`` is text that
    line must contain, so a citation that drifts with a new release fails the build."""

    where: Location
    at: str
    has: str

    @property
    def file(self) -> str:
        return self.at.rsplit(":", 1)[0]

    @property
    def line(self) -> int:
        return int(self.at.rsplit(":", 1)[1])


@dataclass(frozen=True)
class Rule:
    """One rule. ``python`` is one of :data:`STATUSES`; ``note`` says how the port differs
    (required unless it follows); ``asserted_by`` names scenarios that assert the departure;
    ``absent`` names functions or classes the port lacks; ``elsewhere`` the port that has them."""

    where: Location
    id: str
    title: str
    text: str
    sources: tuple[Source, ...]
    python: str
    code: tuple[CodeRef, ...] = ()
    note: str | None = None
    asserted_by: tuple[str, ...] = ()
    elsewhere: str | None = None
    absent: tuple[str, ...] = ()


def _line(node: Any, key: str, default: int) -> int:
    try:
        return node.lc.key(key)[0] + 1
    except (AttributeError, KeyError, TypeError):
        return default


def _documents(doc: Any, path: Path) -> tuple[dict[str, Document], list[Problem]]:
    docs, problems = {}, []
    for key, entry in (doc.get("documents") or {}).items():
        where = Location(path, _line(doc["documents"], key, 1))
        if not isinstance(entry, dict) or "name" not in entry or set(entry) - {"name", "url"}:
            problems.append(
                Problem(
                    where,
                    f"document {key}: expected keys name and url, got "
                    f"{sorted(entry) if isinstance(entry, dict) else entry!r}",
                )
            )
            continue
        docs[str(key)] = Document(str(key), str(entry["name"]), str(entry["url"]) if entry.get("url") else None)
    return docs, problems


def _check_shape(entry: Any, where: Location) -> None:
    """Raises :class:`SourceError` at ``where`` when ``entry`` is not a mapping with the
    required keys and no unknown ones."""
    if isinstance(entry, dict) and set(_REQUIRED) <= set(entry) and not set(entry) - _RULE_KEYS:
        return
    got = sorted(entry) if isinstance(entry, dict) else entry
    raise SourceError(
        Problem(
            where,
            f"a rule needs {', '.join(_REQUIRED)} (and may have "
            f"{', '.join(sorted(_RULE_KEYS - set(_REQUIRED)))}); got {got!r}",
        )
    )


@dataclass(frozen=True)
class _At:
    """Called with one of a rule's keys: where that key is (the rule's own line when the key has none)."""

    path: Path
    entry: Any
    line: int

    def __call__(self, key: str) -> Location:
        return Location(self.path, _line(self.entry, key, self.line))


def _sources(entry: dict[str, Any], rid: str, at: _At, docs: dict[str, Document]) -> tuple[list[Source], list[Problem]]:
    """The rule's ``sources:``, each naming a declared document (a quote at most
    :data:`MAX_QUOTE_WORDS` words), and a problem for each that does not, or for none at all."""
    sources: list[Source] = []
    problems: list[Problem] = []
    raw = entry["sources"]
    for i, s in enumerate(raw or []):
        line = Location(at.path, raw.lc.item(i)[0] + 1) if hasattr(raw, "lc") else at("sources")
        if not isinstance(s, dict) or "doc" not in s or "where" not in s or set(s) - {"doc", "where", "quote"}:
            problems.append(Problem(line, f"rule {rid}: a source needs doc and where (quote optional), got {s!r}"))
        elif s["doc"] not in docs:
            problems.append(
                Problem(line, f"rule {rid}: unknown document {s['doc']!r}", (f"documents: {', '.join(sorted(docs))}",))
            )
        elif s.get("quote") and len(str(s["quote"]).split()) > MAX_QUOTE_WORDS:
            problems.append(
                Problem(
                    line,
                    f"rule {rid}: a quote is a short clause: expected at most "
                    f"{MAX_QUOTE_WORDS} words, got {len(str(s['quote']).split())}",
                )
            )
        else:
            sources.append(Source(docs[s["doc"]], str(s["where"]), str(s["quote"]) if s.get("quote") else None))
    if not raw:
        problems.append(Problem(at("sources"), f"rule {rid}: sources: expected at least one source, got none"))
    return sources, problems


def _code_refs(entry: dict[str, Any], rid: str, path: Path) -> tuple[list[CodeRef], list[Problem]]:
    """The rule's ``code:`` citations, and a problem for each not of the form
    ``{at: toolnexus/<file>.py:<line>, has: <text>}``."""
    code: list[CodeRef] = []
    problems: list[Problem] = []
    for i, c in enumerate(entry.get("code") or []):
        line = Location(path, entry["code"].lc.item(i)[0] + 1)
        if not isinstance(c, dict) or set(c) != {"at", "has"} or not _CODE_AT.match(str(c["at"])):
            problems.append(
                Problem(line, f"rule {rid}: code: expected {{at: toolnexus/<file>.py:<line>, has: <text>}}, got {c!r}")
            )
        else:
            code.append(CodeRef(line, str(c["at"]), str(c["has"])))
    return code, problems


def _status_problems(
    rid: str,
    status: str,
    where: Location,
    *,
    code: list[CodeRef],
    note: Any,
    asserted_by: tuple[str, ...],
    absent: tuple[str, ...],
) -> list[Problem]:
    """What the rule's ``python:`` status needs that the rule does not state, at ``where``."""
    needs = []
    if status in ("follows", "departs") and not code:
        needs.append(f"{status} needs code: citations (file:line of the installed toolnexus)")
    if status in ("departs", "lacks") and not note:
        needs.append(f"{status} needs a note saying how the port differs")
    if status == "departs" and not asserted_by:
        needs.append("departs needs asserted_by: the scenarios that assert the departure")
    if status == "lacks" and not absent:
        needs.append("lacks needs absent: the names the port lacks")
    return [Problem(where, f"rule {rid}: python: {need}") for need in needs]


def _rule(entry: Any, where: Location, docs: dict[str, Document]) -> Rule:
    """The rule ``entry`` (at ``where``). Raises :class:`SourceError` with every problem it
    has: its shape alone when that is wrong, else each of its keys' problems."""
    _check_shape(entry, where)
    rid = str(entry["id"])
    at = _At(where.path, entry, where.line)
    problems: list[Problem] = []
    status = entry["python"]
    if status not in STATUSES:
        problems.append(
            Problem(at("python"), f"rule {rid}: python: expected one of {', '.join(STATUSES)}, got {status!r}")
        )
    sources, found = _sources(entry, rid, at, docs)
    code, found_in_code = _code_refs(entry, rid, where.path)
    note, asserted = entry.get("note"), tuple(str(n) for n in entry.get("asserted_by") or ())
    absent = tuple(str(n) for n in entry.get("absent") or ())
    problems += found + found_in_code
    problems += _status_problems(rid, status, at("python"), code=code, note=note, asserted_by=asserted, absent=absent)
    if problems:
        raise SourceError(*problems)
    return Rule(
        where,
        rid,
        str(entry["title"]),
        str(entry["rule"]),
        tuple(sources),
        status,
        tuple(code),
        str(note) if note else None,
        asserted,
        entry.get("elsewhere"),
        absent,
    )


def load_rules(path: Path) -> list[Rule]:
    """Parse the rules file (``documents:`` then ``rules:``). Raises :class:`SourceError` with
    every malformed entry at its line (``path:line: what``)."""
    path = Path(path)
    try:
        doc = YAML(typ="rt").load(path.read_text(encoding="utf-8"))
    except MarkedYAMLError as e:
        mark = e.problem_mark
        raise SourceError.at(path, mark.line + 1 if mark else 0, f"invalid YAML: {e.problem}") from None
    if not isinstance(doc, dict) or set(doc) != {"documents", "rules"}:
        raise SourceError.at(
            path,
            1,
            f"expected top-level keys documents and rules, got "
            f"{sorted(doc) if isinstance(doc, dict) else type(doc).__name__}",
        )
    docs, problems = _documents(doc, path)
    rules: list[Rule] = []
    for i, entry in enumerate(doc["rules"] or []):
        try:
            rules.append(_rule(entry, Location(path, doc["rules"].lc.item(i)[0] + 1), docs))
        except SourceError as e:
            problems += e.problems
    if problems:
        raise SourceError(*problems)
    return rules


def installed_package_dir() -> Path:
    """The folder holding the installed ``toolnexus`` package (its ``site-packages``).

    Raises :class:`ModuleNotFoundError` when toolnexus is not installed."""
    spec = importlib.util.find_spec("toolnexus")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("toolnexus is not installed")
    return Path(next(iter(spec.submodule_search_locations))).parent


def _defines(package: Path, name: str) -> str | None:
    """``file:line`` where a ``def``, ``class`` or module-level assignment of ``name`` is, or None."""
    pattern = re.compile(rf"^(\s*(async\s+)?def|\s*class)\s+{re.escape(name)}\b|^{re.escape(name)}\s*=")
    for file in sorted((package / "toolnexus").rglob("*.py")):
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
            if pattern.match(line):
                return f"{file.relative_to(package).as_posix()}:{number}"
    return None


def code_problems(rules: list[Rule], package: Path) -> list[Problem]:
    """Each ``code:`` citation whose line (under ``package``, a site-packages folder) does not
    hold its ``has`` text, and each ``absent`` name the installed toolnexus does define."""
    out = []
    lines_of: dict[str, list[str]] = {}
    for rule in rules:
        for ref in rule.code:
            if ref.file not in lines_of:
                file = Path(package) / ref.file
                lines_of[ref.file] = file.read_text(encoding="utf-8").splitlines() if file.is_file() else []
            lines = lines_of[ref.file]
            got = lines[ref.line - 1].strip() if ref.line <= len(lines) else "(no such line)"
            if ref.has not in got:
                out.append(
                    Problem(ref.where, f"rule {rule.id}: {ref.at}: expected a line holding {ref.has!r}, got {got!r}")
                )
        for name in rule.absent:
            found = _defines(Path(package), name)
            if found:
                out.append(
                    Problem(rule.where, f"rule {rule.id}: says the Python port lacks {name}, but {found} defines it")
                )
    return out


@dataclass(frozen=True)
class Coverage:
    """A rule, the scenarios citing it that appear on at least one page (with those pages),
    and the scenarios that assert its departure (name, title, pages)."""

    rule: Rule
    scenarios: tuple[Scenario, ...]
    pages: tuple[str, ...]
    asserting: tuple[tuple[str, str, tuple[str, ...]], ...] = ()


def coverage(rules: list[Rule], scenarios: list[Scenario], pages: dict[str, list[str]]) -> list[Coverage]:
    """For every rule, its shown scenarios and their pages (each page once, in order)."""
    out = []
    by_name = {s.name: s for s in scenarios}
    for rule in rules:
        shown = tuple(s for s in scenarios if rule.id in s.rules and pages.get(s.name))
        rule_pages: list[str] = []
        for s in shown:
            rule_pages += [p for p in pages[s.name] if p not in rule_pages]
        asserting = tuple((n, by_name[n].title, tuple(pages.get(n, ()))) for n in rule.asserted_by if n in by_name)
        out.append(Coverage(rule, shown, tuple(rule_pages), asserting))
    return out


def problems(rules: list[Rule], scenarios: list[Scenario], pages: dict[str, list[str]]) -> list[Problem]:
    """An implemented rule with no scenario on any page; a scenario citing an unknown rule; a
    departure whose ``asserted_by`` names no scenario, or one that does not cite the rule."""
    known = {r.id for r in rules}
    by_name = {s.name: s for s in scenarios}
    out = [
        Problem(
            c.rule.where,
            f"rule {c.rule.id} ({c.rule.title}) is implemented by the Python port but no "
            "scenario on any page demonstrates it",
        )
        for c in coverage(rules, scenarios, pages)
        if c.rule.python != "lacks" and not c.scenarios
    ]
    for rule in rules:
        for name in rule.asserted_by:
            if name not in by_name:
                out.append(
                    Problem(
                        rule.where,
                        f"rule {rule.id}: asserted_by names {name}, which is no scenario",
                        (f"scenarios: {', '.join(sorted(by_name))}",),
                    )
                )
            elif rule.id not in by_name[name].rules:
                out.append(
                    Problem(
                        rule.where,
                        f"rule {rule.id}: asserted_by names {name}, whose rules: "
                        f"{list(by_name[name].rules)} do not cite {rule.id}",
                    )
                )
    for s in scenarios:
        for rid in s.rules:
            if rid not in known:
                out.append(
                    Problem(
                        Location(s.yaml_path, 1),
                        f"scenario {s.name} cites unknown rule {rid}",
                        (f"known rules: {', '.join(sorted(known))}",),
                    )
                )
    return out
