"""The SPEC §10 rules (``rules/spec-10.yaml``) and which scenarios demonstrate each.

A rule is implemented by the Python port or names the port that has it. Scenarios cite rules
in their ``rules:`` list; a page shows a scenario when it holds one of its directives.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError

from .directive import find_directives
from .errors import Location, Problem, SourceError
from .scenario import Scenario

RULES_FILE = Path("rules") / "spec-10.yaml"
_KEYS = {"id", "title", "rule", "python", "elsewhere"}


@dataclass(frozen=True)
class Rule:
    """One rule: ``id`` like ``S7``; ``python`` False means only ``elsewhere`` implements it."""

    where: Location
    id: str
    title: str
    text: str
    python: bool
    elsewhere: str | None


def load_rules(path: Path) -> list[Rule]:
    """Parse the rules file. Raises :class:`SourceError` at the line of a malformed entry."""
    try:
        doc = YAML(typ="rt").load(Path(path).read_text(encoding="utf-8"))
    except MarkedYAMLError as e:
        mark = e.problem_mark
        raise SourceError.at(path, mark.line + 1 if mark else 0, f"invalid YAML: {e.problem}") from None
    rules: list[Rule] = []
    problems: list[Problem] = []
    for i, entry in enumerate(doc or []):
        where = Location(Path(path), doc.lc.item(i)[0] + 1)
        if not isinstance(entry, dict) or not {"id", "title", "rule", "python"} <= set(entry) or set(entry) - _KEYS:
            problems.append(Problem(where, f"a rule needs id, title, rule, python (and elsewhere when python is false); "
                                           f"got {sorted(entry) if isinstance(entry, dict) else entry!r}"))
            continue
        if not entry["python"] and not entry.get("elsewhere"):
            problems.append(Problem(where, f"rule {entry['id']}: python is false, so say which port has it in 'elsewhere'"))
            continue
        rules.append(Rule(where, str(entry["id"]), str(entry["title"]), str(entry["rule"]), bool(entry["python"]),
                          entry.get("elsewhere")))
    if problems:
        raise SourceError(*problems)
    return rules


def pages_by_scenario(docs: Path) -> dict[str, list[str]]:
    """Scenario name -> the pages (posix, relative to ``docs``) holding one of its directives."""
    found: dict[str, list[str]] = {}
    for page in sorted(Path(docs).rglob("*.md")):
        rel = page.relative_to(docs).as_posix()
        for d in find_directives(page.read_text(encoding="utf-8"), page):
            if d.scenario and rel not in found.setdefault(d.scenario, []):
                found[d.scenario].append(rel)
    return found


@dataclass(frozen=True)
class Coverage:
    """A rule and the scenarios citing it that appear on at least one page."""

    rule: Rule
    scenarios: tuple[Scenario, ...]
    pages: tuple[str, ...]


def coverage(rules: list[Rule], scenarios: list[Scenario], pages: dict[str, list[str]]) -> list[Coverage]:
    """For every rule, its shown scenarios and their pages (each page once, in order)."""
    out = []
    for rule in rules:
        shown = tuple(s for s in scenarios if rule.id in s.rules and pages.get(s.name))
        rule_pages: list[str] = []
        for s in shown:
            rule_pages += [p for p in pages[s.name] if p not in rule_pages]
        out.append(Coverage(rule, shown, tuple(rule_pages)))
    return out


def problems(rules: list[Rule], scenarios: list[Scenario], pages: dict[str, list[str]]) -> list[Problem]:
    """An implemented rule with no scenario on any page; a scenario citing an unknown rule."""
    known = {r.id for r in rules}
    out = [Problem(c.rule.where, f"rule {c.rule.id} ({c.rule.title}) is implemented by the Python port but no "
                                 "scenario on any page demonstrates it")
           for c in coverage(rules, scenarios, pages) if c.rule.python and not c.scenarios]
    for s in scenarios:
        for rid in s.rules:
            if rid not in known:
                out.append(Problem(Location(s.yaml_path, 1), f"scenario {s.name} cites unknown rule {rid}",
                                   (f"known rules: {', '.join(sorted(known))}",)))
    return out
