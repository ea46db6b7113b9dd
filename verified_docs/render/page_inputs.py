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
- each scenario the page's directives and claims name (its name anywhere in an HTML comment
  of the page; every scenario for a page holding the release matrix, whose rows count only
  while their scenario's files are unchanged): the digest of the scenario's files
  (:func:`~verified_docs.scenario.digest.content_digest`: the programs a page includes, the
  golden outputs, ``scenario.yaml``) and the scenario's ledger entries (what passed, the
  hashes, the stories diagrams draw, the lines that ran);
- for a page holding the contract: every scenario's ``scenario.yaml`` (the rules each shows,
  its title). A link to another page is resolved by the generator and reads nothing of it.

Every part errs towards rendering again: a name anywhere in a comment counts, and a change to
any comment of any page renders every page again.
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

# A page holding the matrix reads every scenario's files (a row counts while they are as
# measured); one holding the contract, every scenario.yaml (the rules each shows).
_MATRIX = "<!-- verified-matrix"
_CONTRACT = "<!-- verified-contract"
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
    """The scenarios ``text`` (a page) may read: every one whose name one of its HTML comments
    (directives, claims) holds, or all of them when it holds the release matrix."""
    if _MATRIX in text:
        return sorted(scenarios)
    comments = "\n".join(_COMMENT.findall(text))
    return sorted(name for name in scenarios if name in comments)


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
        if _CONTRACT in text:
            for name in sorted(scenarios):
                h.update(name.encode() + b"\0" + scenarios[name].yaml_path.read_bytes())
        out[rel] = h.hexdigest()
    return out
