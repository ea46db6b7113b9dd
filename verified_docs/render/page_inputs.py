"""What each page's rendering (and the HTML built from it) reads, as one digest per page: a
page whose digest is unchanged renders to the same Markdown and builds to the same HTML, so
the author loop (:mod:`verified_docs.serve.incremental`) renders and builds only the others.

A page's digest (:func:`page_digests`) covers:

- the page's own bytes;
- what any page may read (:func:`shared_digest`): ``mkdocs.yml`` (nav, titles, extensions),
  every file of ``rules/`` (the SPEC rules, the release matrix, the claimed sentences),
  ``pyproject.toml`` (the install line), the toolnexus and Python the ledger was written with;
- what one page reads of the others (:func:`cross_page_digest`): every HTML comment of every
  page (its directives and claims: which page shows which scenario's evidence, the matrix, the
  contract, the cited sources) and every page's first heading (the titles tables link with);
- each scenario the page names (its name anywhere in the page, so a directive, a claim or a
  link; every scenario for a page holding the contract, the matrix or the sources list): the
  digest of the scenario's files (:func:`~verified_docs.scenario.digest.content_digest`: the
  programs a page includes, the golden outputs, ``scenario.yaml``) and the scenario's ledger
  entries (what passed, the hashes, the stories diagrams draw, the lines that ran).

Every part errs towards rendering again: a name that merely appears in prose counts, and a
change to any comment of any page renders every page that holds a claim or directive again.
Not covered, because the author loop does not watch them (it says so): the machinery itself
and the installed packages.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from verified_docs.ledger import Ledger
from verified_docs.scenario.digest import content_digest, files_under
from verified_docs.scenario.records import Scenario

# A page holding one of these reads every scenario (its table lists them all).
_EVERY_SCENARIO = ("<!-- verified-contract", "<!-- verified-matrix", "<!-- verified-sources")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_HEADING = re.compile(r"^#\s+.*$", re.M)
SHARED_FILES = ("mkdocs.yml", "pyproject.toml", "conftest.py")


def shared_digest(root: Path, ledger: Ledger) -> str:
    """Hex SHA-256 of what any page may read: :data:`SHARED_FILES` at ``root``, every file under
    ``root/rules``, and ``ledger``'s toolnexus and Python."""
    h = hashlib.sha256(f"{ledger.toolnexus}\0{ledger.python}\0".encode())
    for name in SHARED_FILES:
        path = Path(root) / name
        h.update(name.encode() + b"\0" + (path.read_bytes() if path.is_file() else b"-") + b"\0")
    rules = Path(root) / "rules"
    for path in files_under(rules) if rules.is_dir() else ():
        h.update(path.relative_to(rules).as_posix().encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def cross_page_digest(texts: dict[str, str]) -> str:
    """Hex SHA-256 of what a page may read of the other pages (``texts``: page, posix below
    ``docs/`` -> its text): every HTML comment of each and its level-1 headings."""
    h = hashlib.sha256()
    for rel in sorted(texts):
        h.update(rel.encode() + b"\0")
        for part in _COMMENT.findall(texts[rel]) + _HEADING.findall(texts[rel]):
            h.update(part.encode() + b"\0")
    return h.hexdigest()


def named_scenarios(text: str, scenarios: dict[str, Scenario]) -> list[str]:
    """The scenarios ``text`` (a page) may read: every one whose name it holds, or all of them
    when it holds the contract, the matrix or the cited-sources list."""
    if any(d in text for d in _EVERY_SCENARIO):
        return sorted(scenarios)
    return sorted(name for name in scenarios if name in text)


def scenario_digest(scenario: Scenario, ledger: Ledger) -> str:
    """Hex SHA-256 of ``scenario``'s files and of its programs' ledger entries."""
    entries = {rel: e for rel, e in ledger.programs.items() if e.get("scenario") == scenario.name}
    h = hashlib.sha256(content_digest(scenario).encode())
    h.update(json.dumps(entries, sort_keys=True, default=str).encode())
    return h.hexdigest()


def page_digests(root: Path, docs: Path, scenarios: dict[str, Scenario], ledger: Ledger) -> dict[str, str]:
    """Page (posix, below ``docs``) -> hex SHA-256 of everything its rendering and its HTML
    read (see the module docstring). Raises ``OSError`` when a file cannot be read."""
    texts = {p.relative_to(docs).as_posix(): p.read_text(encoding="utf-8-sig") for p in sorted(docs.rglob("*.md"))}
    shared = shared_digest(root, ledger) + cross_page_digest(texts)
    per_scenario: dict[str, str] = {}
    out = {}
    for rel, text in texts.items():
        h = hashlib.sha256((shared + "\0" + text).encode())
        for name in named_scenarios(text, scenarios):
            if name not in per_scenario:
                per_scenario[name] = scenario_digest(scenarios[name], ledger)
            h.update(f"{name}\0{per_scenario[name]}\0".encode())
        out[rel] = h.hexdigest()
    return out
