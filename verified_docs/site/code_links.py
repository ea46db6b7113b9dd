"""Link the toolnexus names in the built site's programs to their API reference entries, the
way sphinx-codeautolink does for Sphinx (MkDocs and Zensical have nothing like it).

A name links only where the program really bound it: the tracer records, when the program
exits, which of its global names hold a toolnexus module, class or function, by the object's
qualified name (``Answer`` -> ``toolnexus.types.Answer``; the ledger keeps it per file). The
program's own syntax tree then says where those names are used: each load of such a global
name (not one a function shadows: :mod:`symtable` says which scope a name belongs to), each
name in a ``from toolnexus... import`` line, and each keyword argument of a call to such a
function or class (``wait_for=`` of ``create_client``, ``ok=`` of ``Answer``: a parameter's or
a field's entry). The entries are read from the built pages
themselves (``data-vd-api`` and ``id``, written by :mod:`verified_docs.render.api_reference`),
so a link goes only to an entry that is there. Names without an entry stay plain.

It runs on the built HTML, after either generator and before the guard. Only elements are
added: each linked token's ``<span>`` is wrapped in ``<a class="vd-api-link">``, so the text
of every code block (what the guard checks, and what the copy button copies) is unchanged.
A code block is known as a program when its text is the whole program as the ledger
fingerprinted it; its lines are then the file's lines without section markers.
"""

from __future__ import annotations

import ast
import html
import os
import posixpath
import re
import symtable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Iterable

from verified_docs.files import write_atomic
from verified_docs.ledger import Ledger, fingerprint
from verified_docs.scenario.sections import WHOLE, program_view

API_ATTRIBUTE = "data-vd-api"
LINK_CLASS = "vd-api-link"
_PRE = re.compile(r"(<pre\b[^>]*>)(.*?)(</pre>)", re.S)
_TOKEN = re.compile(r"<[^>]*>|[^<]+")
# A leaf token of Pygments' output: one span holding only text.
_LEAF = re.compile(r'<span class="[^"]*">([^<]*)</span>')


@dataclass(frozen=True)
class Target:
    """Where an entry is: the built ``page`` and the ``id`` on it."""

    page: Path
    id: str


@dataclass(frozen=True)
class LinkReport:
    """What :func:`link_site` did: links made, code blocks and pages they are in, and the
    program blocks seen (whole programs the ledger vouches for)."""

    links: int
    blocks: int
    pages: int
    programs: int


class _Targets(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        key, id_ = values.get(API_ATTRIBUTE), values.get("id")
        if key and id_:
            self.found.setdefault(key, id_)


def api_targets(site: Path) -> dict[str, Target]:
    """Qualified name (or ``name(parameter)``, ``Class.field``) -> where its entry is, for
    every element of the site with ``data-vd-api`` and an ``id``."""
    out: dict[str, Target] = {}
    for page in sorted(Path(site).rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        if API_ATTRIBUTE not in text:
            continue
        parser = _Targets()
        parser.feed(text)
        for key, id_ in parser.found.items():
            out.setdefault(key, Target(page, id_))
    return out


def _char_col(line: str, byte_col: int) -> int:
    """The character column of ``ast``'s UTF-8 byte column ``byte_col`` in ``line``."""
    return len(line.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))


class _References(ast.NodeVisitor):
    """The places a program uses the toolnexus names it bound: (line, character column) ->
    (the text there, the key of its entry)."""

    def __init__(self, source: str, names: dict[str, str], filename: str) -> None:
        self.lines = source.splitlines()
        self.names = names
        self.scope = symtable.symtable(source, filename, "exec")
        self.found: dict[tuple[int, int], tuple[str, str]] = {}

    def _add(self, line: int, byte_col: int, text: str, key: str) -> None:
        if 0 < line <= len(self.lines):
            self.found[(line, _char_col(self.lines[line - 1], byte_col))] = (text, key)

    def _global(self, name: str) -> str | None:
        """The qualified name the global ``name`` holds, when the current scope means it."""
        if name not in self.names:
            return None
        try:
            symbol = self.scope.lookup(name)
        except KeyError:
            return self.names[name]
        is_module = self.scope.get_type() == "module"
        return self.names[name] if is_module or symbol.is_global() else None

    def _inside(self, node: ast.AST, name: str, body: list[ast.AST]) -> None:
        """Visit ``body`` in the scope symtable made for ``node`` (``name``; by name and line)."""
        lineno = getattr(node, "lineno", 0)
        child = next((c for c in self.scope.get_children() if c.get_name() == name and c.get_lineno() == lineno), None)
        outer, self.scope = self.scope, child or self.scope
        for part in body:
            self.visit(part)
        self.scope = outer

    def visit_Name(self, node: ast.Name) -> None:
        key = self._global(node.id) if isinstance(node.ctx, ast.Load) else None
        if key:
            self._add(node.lineno, node.col_offset, node.id, key)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module and (node.module == "toolnexus" or node.module.startswith("toolnexus.")):
            for alias in node.names:
                key = self.names.get(alias.asname or alias.name)
                if key and self.scope.get_type() == "module":
                    self._add(alias.lineno, alias.col_offset, alias.name, key)

    def visit_Call(self, node: ast.Call) -> None:
        function = self._global(node.func.id) if isinstance(node.func, ast.Name) else None
        if function:
            for kw in node.keywords:
                if kw.arg:
                    self._add(kw.lineno, kw.col_offset, kw.arg, f"{function}({kw.arg})")
        self.generic_visit(node)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, name: str) -> None:
        # Decorators, defaults and annotations belong to the enclosing scope; the body to its own.
        args = node.args
        outer: list[ast.AST] = [*getattr(node, "decorator_list", []), *args.defaults]
        outer += [d for d in args.kw_defaults if d is not None]
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs, *filter(None, (args.vararg, args.kwarg))]
        outer += [a.annotation for a in every if a.annotation is not None]
        returns = getattr(node, "returns", None)
        for part in [*outer, *([returns] if returns is not None else [])]:
            self.visit(part)
        body = node.body if isinstance(node.body, list) else [node.body]
        self._inside(node, name, list(body))

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node, node.name)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._function(node, node.name)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._function(node, "lambda")

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for part in [*node.decorator_list, *node.bases, *node.keywords]:
            self.visit(part)
        self._inside(node, node.name, list(node.body))

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp, name: str) -> None:
        generators = node.generators
        self.visit(generators[0].iter)  # evaluated in the enclosing scope
        rest: list[ast.AST] = [generators[0].target, *generators[0].ifs]
        for g in generators[1:]:
            rest += [g.target, g.iter, *g.ifs]
        rest += [getattr(node, f) for f in ("elt", "key", "value") if hasattr(node, f)]
        self._inside(node, name, rest)

    def visit_ListComp(self, node: ast.ListComp) -> None:
        self._comprehension(node, "listcomp")

    def visit_SetComp(self, node: ast.SetComp) -> None:
        self._comprehension(node, "setcomp")

    def visit_DictComp(self, node: ast.DictComp) -> None:
        self._comprehension(node, "dictcomp")

    def visit_GeneratorExp(self, node: ast.GeneratorExp) -> None:
        self._comprehension(node, "genexpr")


def references(path: Path, names: dict[str, str]) -> dict[tuple[int, int], tuple[str, str]]:
    """Where the program at ``path`` uses the toolnexus ``names`` it bound (name -> qualified
    name, as the ledger records them): (1-based file line, character column) -> (the text
    there, the entry's key). Empty for a file Python cannot parse or that binds no such name."""
    if not names:
        return {}
    source = Path(path).read_text(encoding="utf-8")
    try:
        tree = ast.parse(source, str(path))
        visitor = _References(source, names, str(path))
    except SyntaxError:
        return {}
    visitor.visit(tree)
    return visitor.found


def _href(page: Path, target: Target) -> str:
    """The link from ``page`` to ``target``: ``#id`` on the same page, else a relative address
    (a folder's ``index.html`` as the folder, as both generators link pages)."""
    if target.page == page:
        return f"#{target.id}"
    goal = target.page.parent if target.page.name == "index.html" else target.page
    rel = posixpath.normpath(os.path.relpath(goal, page.parent)).replace(os.sep, "/")
    return f"{rel}/#{target.id}" if target.page.name == "index.html" else f"{rel}#{target.id}"


def _keys(key: str) -> tuple[str, ...]:
    """The entries a reference may link to, first found first: a keyword argument
    (``toolnexus.types.Answer(id)``) is a function's parameter or, for a class, its field
    (``toolnexus.types.Answer.id``)."""
    m = re.fullmatch(r"(.+)\((\w+)\)", key)
    return (key, f"{m.group(1)}.{m.group(2)}") if m else (key,)


def link_block(code_html: str, file_lines: tuple[int, ...], refs: dict, hrefs: dict[str, str]) -> tuple[str, int]:
    """``code_html`` (the inside of a ``<pre>``, Pygments' spans) with each token at a place
    in ``refs`` (see :func:`references`) whose entry has an address in ``hrefs`` wrapped in a
    link, and how many were. ``file_lines[i]`` is the file line shown as line ``i + 1``."""
    out: list[str] = []
    line, col, made = 1, 0, 0
    pos = 0
    while pos < len(code_html):
        leaf = _LEAF.match(code_html, pos)
        if leaf:
            text = html.unescape(leaf.group(1))
            ref = refs.get((file_lines[line - 1], col)) if "\n" not in text and line <= len(file_lines) else None
            key = next((k for k in _keys(ref[1]) if k in hrefs), None) if ref and ref[0] == text else None
            if key:
                out.append(f'<a class="{LINK_CLASS}" href="{html.escape(hrefs[key])}">{leaf.group(0)}</a>')
                made += 1
            else:
                out.append(leaf.group(0))
            pos = leaf.end()
        else:
            token = _TOKEN.match(code_html, pos)
            assert token is not None  # the pattern matches any text
            out.append(token.group(0))
            pos = token.end()
            text = "" if token.group(0).startswith("<") else html.unescape(token.group(0))
        for ch in text:
            line, col = (line + 1, 0) if ch == "\n" else (line, col + 1)
    return "".join(out), made


def _programs(ledger: Ledger, root: Path) -> dict[str, tuple[Path, dict[str, str]]]:
    """Fingerprint of each passed file's whole view -> (its path, the toolnexus names it bound)."""
    out = {}
    for rel, entry in ledger.programs.items():
        whole = entry.get("sections", {}).get(WHOLE)
        if entry.get("passed") and whole and entry.get("names"):
            out[whole] = (root / rel, entry["names"])
    return out


def _link_page(
    text: str, hrefs: dict[str, str], programs: dict[str, tuple[Path, dict[str, str]]], seen: dict[Path, tuple]
) -> tuple[str, int, int, int]:
    """``text`` (a built page) with its programs' names linked (see :func:`link_block`), and
    the links made, the blocks that got one, the program blocks seen. ``seen`` keeps each
    program's shown lines and references across pages."""
    links = blocks = programs_seen = 0
    out: list[str] = []
    pos = 0
    for m in _PRE.finditer(text):
        shown = html.unescape(re.sub(r"<[^>]*>", "", m.group(2)))
        program = programs.get(fingerprint(shown))
        if program is None or LINK_CLASS in m.group(2):  # not a program, or linked already
            continue
        programs_seen += 1
        path, names = program
        if path not in seen:
            view = program_view(path)
            # The block shows the view without the blank lines fingerprint() ignores.
            skipped = len(view.text) - len(view.text.lstrip("\n"))
            seen[path] = (view.file_lines[skipped:], references(path, names))
        file_lines, refs = seen[path]
        linked, made = link_block(m.group(2), file_lines, refs, hrefs)
        out += [text[pos : m.start(2)], linked]
        pos = m.end(2)
        links += made
        blocks += bool(made)
    return "".join(out) + text[pos:], links, blocks, programs_seen


def link_site(site: Path, ledger: Ledger, root: Path, only: Iterable[Path] | None = None) -> LinkReport:
    """Link every program's toolnexus names in the HTML under ``site`` (in the pages ``only``,
    when given: the author loop's rebuilt pages; the others were linked when they were built)
    to their entries (see the module docstring), rewriting each page that gains a link
    (atomically)."""
    targets = api_targets(site)
    programs = _programs(ledger, root)
    links = blocks = pages = seen = 0
    views: dict[Path, tuple] = {}
    chosen = sorted(Path(site).rglob("*.html")) if only is None else sorted(p for p in only if p.is_file())
    for page in chosen:
        text = page.read_text(encoding="utf-8")
        hrefs = {key: _href(page, t) for key, t in targets.items()}
        new, made, linked_blocks, programs_here = _link_page(text, hrefs, programs, views)
        links, blocks, seen = links + made, blocks + linked_blocks, seen + programs_here
        if made:
            pages += 1
            write_atomic(page, new)
    return LinkReport(links, blocks, pages, seen)
