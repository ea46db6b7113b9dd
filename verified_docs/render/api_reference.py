"""Render ``<!-- verified-api-reference names="..." -->``: reference entries for toolnexus names,
read from the installed package by griffe when the page is built.

``names`` lists public paths separated by spaces (``toolnexus.pending toolnexus.agents.AgentRuntime.resume``).
A path may name, in brackets, the parameters of a function or the fields of a class to give an
entry each (``toolnexus.create_client(wait_for)``, ``toolnexus.RunResult(status,limit,pending)``);
a class named without brackets gets one per field, ``toolnexus.X()`` none.

griffe (mkdocstrings-python's loader) reads the package statically, without importing it, so
every signature, annotation, default, docstring and source line on the page is the installed
package's own; none is typed by hand. Each entry carries what :mod:`verified_docs.site.api_check`
checks in the built HTML against griffe again, and what :mod:`verified_docs.site.code_links`
links the programs' names to: ``data-vd-api`` (the object's qualified name where it is defined,
``toolnexus.types.Answer``, which is what the tracer records a program imported) with a stable
id (:func:`verified_docs.render.anchors.api_anchor`), ``data-vd-api-signature`` on the signature.
A SPEC §10 rule whose cited lines (``rules/spec-10.yaml``) fall inside an object's definition is
named beside it, with the Python port's status, so a departure from the SPEC shows where it is.
"""

from __future__ import annotations

import difflib
import posixpath
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from verified_docs.errors import Location, Problem, SourceError
from verified_docs.render.anchors import api_anchor
from verified_docs.render.directive import Directive
from verified_docs.render.templating import code, plain, render
from verified_docs.scenario.rules import Rule

PACKAGE = "toolnexus"
_PATH = re.compile(r"^(?P<path>[A-Za-z_][\w.]*)(?:\((?P<members>[\w,\s]*)\))?$")
# A docstring's reStructuredText literals (``x``) and roles (:class:`x`), shown as code; the
# rest of its text is shown as written.
_LITERAL = re.compile(r"``(?P<a>.+?)``|:[a-z]+:`(?P<b>[^`]+)`")


@dataclass(frozen=True)
class Member:
    """A parameter of a function or a field of a class, as griffe reads it: ``text`` as the page
    shows it (``wait_for: Optional[WaitFor] = None``), ``key`` (the owner's qualified name with
    ``(name)`` for a parameter, ``.name`` for a field), its ``anchor`` and its source ``line``
    (0 for a parameter, which griffe gives no line of its own)."""

    name: str
    text: str
    key: str
    anchor: str
    line: int


@dataclass(frozen=True)
class Entry:
    """One reference entry. ``path`` is the public path the page names (``toolnexus.Answer``);
    ``qualified`` where the object is defined (``toolnexus.types.Answer``); ``kind`` in words
    (``dataclass``, ``async method of AgentRuntime``); ``signature`` as griffe writes it;
    ``docstring`` the package's own, or None; ``file`` below site-packages with the
    definition's first and last ``line`` and ``end``; ``imported`` the import line that brings
    it in (None for a method); ``members`` its sub-entries."""

    path: str
    qualified: str
    title: str
    kind: str
    signature: str
    docstring: str | None
    file: str
    line: int
    end: int
    imported: str | None
    anchor: str
    members: tuple[Member, ...]


@lru_cache(maxsize=4)
def load_package(search_path: Path) -> Any:
    """The toolnexus package under ``search_path`` (a site-packages folder), loaded by griffe
    statically (nothing is imported), aliases resolved. Memoised: the render stage and the
    guard read it once per build."""
    import griffe

    return griffe.load(PACKAGE, search_paths=[str(search_path)], allow_inspection=False, resolve_aliases=True)


def parse_names(directive: Directive, value: str) -> list[tuple[str, tuple[str, ...] | None]]:
    """``names`` as (public path, member names or None when not given). Raises
    :class:`SourceError` at the directive for an empty list, a path outside toolnexus, a
    malformed item or a path named twice."""
    items = re.findall(r"[^\s(]+(?:\([^)]*\))?", value)
    if not items:
        raise SourceError.at(directive.where.path, directive.where.line, "names is empty: list toolnexus paths")
    out: list[tuple[str, tuple[str, ...] | None]] = []
    for item in items:
        m = _PATH.match(item)
        if m is None or not (m.group("path") + ".").startswith(PACKAGE + "."):
            raise SourceError.at(
                directive.where.path,
                directive.where.line,
                f"names: cannot read {item!r}",
                "an item is a public path such as toolnexus.pending, toolnexus.create_client(wait_for) "
                "or toolnexus.RunResult(status,limit)",
            )
        members = m.group("members")
        out.append(
            (m.group("path"), None if members is None else tuple(x.strip() for x in members.split(",") if x.strip()))
        )
    paths = [p for p, _ in out]
    twice = sorted({p for p in paths if paths.count(p) > 1})
    if twice:
        raise SourceError.at(directive.where.path, directive.where.line, f"names lists {', '.join(twice)} twice")
    return out


def _lookup(package: Any, path: str, where: Location) -> Any:
    """The griffe object at public ``path``, its alias followed. Raises :class:`SourceError` at
    ``where`` for a name the package does not have, with the names it does have there."""
    parent = package
    for part in path.split(".")[1:]:
        members = getattr(parent, "members", {})
        if part not in members:
            public = sorted(n for n in members if not n.startswith("_"))
            close = difflib.get_close_matches(part, public, n=5)
            raise SourceError.at(
                where.path,
                where.line,
                f"{path}: toolnexus has no {part!r} in {parent.path}",
                f"close names there: {', '.join(close) if close else ', '.join(public[:12])}",
            )
        parent = members[part].final_target if members[part].is_alias else members[part]
    return parent


def _parameter_text(p: Any) -> str:
    """A parameter as griffe's own signature writes it (``name: annotation = default``)."""
    star = "*" if p.kind.value == "variadic positional" else "**" if p.kind.value == "variadic keyword" else ""
    text = f"{star}{p.name}"
    if p.annotation is not None:
        text += f": {p.annotation}"
    if p.default is not None and not star:
        text += f"{' = ' if p.annotation is not None else '='}{p.default}"
    return text


def _attribute_text(a: Any) -> str:
    """A field or module attribute: ``name: annotation = value``, parts griffe has none of left out."""
    text = a.name + (f": {a.annotation}" if a.annotation is not None else "")
    return text + (f" = {a.value}" if a.value is not None else "")


def signature(obj: Any) -> str:
    """What an entry shows as ``obj``'s signature: griffe's own for a function, method or class,
    :func:`_attribute_text` for an attribute."""
    if obj.is_attribute:
        return _attribute_text(obj)
    return str(obj.signature())


def _fields(obj: Any) -> dict[str, Any]:
    return {n: m for n, m in obj.members.items() if not m.is_alias and m.is_attribute and not n.startswith("_")}


def _members(obj: Any, path: str, named: tuple[str, ...] | None, where: Location) -> tuple[Member, ...]:
    """The sub-entries of ``obj`` (at public ``path``, which their ids are made from): the
    ``named`` parameters of a function or fields of a class (every field of a class when None). Raises :class:`SourceError` at ``where`` for a name
    ``obj`` does not have, listing those it has."""
    if obj.is_function:
        params = {p.name: p for p in obj.parameters if p.name not in ("self", "cls")}
        have: dict[str, Member] = {
            n: Member(n, _parameter_text(p), f"{obj.path}({n})", api_anchor(path, n), 0) for n, p in params.items()
        }
    elif obj.is_class:
        have = {
            n: Member(n, _attribute_text(a), f"{obj.path}.{n}", api_anchor(path, n), a.lineno or 0)
            for n, a in _fields(obj).items()
        }
    else:
        have = {}
    if named is None:
        return tuple(have.values()) if obj.is_class else ()
    unknown = [n for n in named if n not in have]
    if unknown:
        raise SourceError.at(
            where.path,
            where.line,
            f"{obj.path} has no {'parameter' if obj.is_function else 'field'} {', '.join(map(repr, unknown))}",
            f"it has: {', '.join(have) or 'none'}",
        )
    return tuple(have[n] for n in named)


def _kind(obj: Any) -> str:
    """``obj``'s kind in words: ``function``, ``async method of AgentRuntime``, ``dataclass``, ..."""
    if obj.is_function:
        word = f"method of {obj.parent.name}" if obj.parent is not None and obj.parent.is_class else "function"
        return f"async {word}" if "async" in obj.labels else word
    if obj.is_class:
        return "dataclass" if "dataclass" in obj.labels else "class"
    return "module attribute" if obj.is_attribute else str(obj.kind.value)


def entries(directive: Directive, value: str, search_path: Path) -> list[Entry]:
    """The entries ``names`` (``value``, the directive's attribute) asks for, read from the
    toolnexus under ``search_path``. Raises :class:`SourceError` at the directive for a name or
    member the package does not have."""
    package = load_package(search_path)
    out = []
    for path, named in parse_names(directive, value):
        obj = _lookup(package, path, directive.where)
        parent = path.rsplit(".", 1)[0]
        owner = package if parent == PACKAGE else _lookup(package, parent, directive.where)
        out.append(
            Entry(
                path,
                obj.path,
                ".".join(path.split(".")[-2:]) if owner.is_class else path.rsplit(".", 1)[1],
                _kind(obj),
                signature(obj),
                obj.docstring.value if obj.docstring else None,
                str(obj.relative_package_filepath),
                obj.lineno or 0,
                obj.endlineno or obj.lineno or 0,
                f"from {parent} import {path.rsplit('.', 1)[1]}" if owner.is_module else None,
                api_anchor(path),
                _members(obj, path, named, directive.where),
            )
        )
    return out


def docstring_markdown(text: str) -> str:
    """A docstring as Markdown paragraphs for a block quote: its words as written (escaped),
    its ``literals`` and :role:`targets` as code, its lines joined within a paragraph."""
    paragraphs = [" ".join(line.strip() for line in p.splitlines()) for p in re.split(r"\n\s*\n", text.strip())]
    out = []
    for p in paragraphs:
        parts, pos = [], 0
        for m in _LITERAL.finditer(p):
            parts += [plain(p[pos : m.start()]), code(m.group("a") or m.group("b"))]
            pos = m.end()
        out.append("".join(parts + [plain(p[pos:])]))
    return "\n>\n".join(f"> {p}" for p in out)


def _cited(rules: list[Rule], file: str, first: int, last: int) -> list[Rule]:
    """The rules that cite a line from ``first`` to ``last`` of ``file`` (``toolnexus/x.py``)."""
    found = []
    for rule in rules:
        for ref in rule.code:
            cited_file, _, line = ref.at.rpartition(":")
            if cited_file == file and line.isdigit() and first <= int(line) <= last:
                found.append(rule)
                break
    return found


def _rule_links(rules: list[Rule], page: str, contract: str | None) -> str:
    """Each rule as ``[S9 Three statuses](contract.md#s9) (the Python port **departs**)``."""
    status = {"follows": "follows it", "departs": "**departs** from it", "lacks": "lacks it"}
    out = []
    for r in rules:
        title = f"{r.id} {plain(r.title)}"
        link = (
            f"[{title}]({posixpath.relpath(contract, posixpath.dirname(page) or '.')}#{r.id.lower()})"
            if contract
            else title
        )
        out.append(f"{link} (the Python port {status[r.python]})")
    return "; ".join(out)


def render_api_reference(
    directive: Directive,
    names: str,
    page: str,
    search_path: Path,
    version: str,
    rules: list[Rule],
    contract: str | None,
) -> str:
    """Markdown for the entries ``names`` asks for (see the module docstring): per entry a
    heading with its id, its kind, import line and source place, its signature, its docstring
    quoted, its members, and the SPEC §10 rules citing its lines (linked on ``contract``, the
    contract page, posix below docs; unlinked when None). ``page`` is this page (posix below
    docs), ``version`` the installed toolnexus. Raises :class:`SourceError` at the directive for
    an unknown name, and for two entries whose ids would be equal."""
    found = entries(directive, names, search_path)
    ids = [e.anchor for e in found] + [m.anchor for e in found for m in e.members]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise SourceError(Problem(directive.where, f"two entries would share the id {', '.join(twice)}"))
    shown = []
    for e in found:
        at_member = {m.name: _cited(rules, e.file, m.line, m.line) if m.line else [] for m in e.members}
        elsewhere = [r for r in _cited(rules, e.file, e.line, e.end) if all(r not in x for x in at_member.values())]
        shown.append(
            {
                "entry": e,
                "docstring": docstring_markdown(e.docstring) if e.docstring else None,
                "rules": _rule_links(elsewhere, page, contract),
                "members": [(m, _rule_links(at_member[m.name], page, contract)) for m in e.members],
            }
        )
    return render(
        "api_reference.md.j2", directive.indent, directive=directive, entries=shown, version=version, code=code
    )
