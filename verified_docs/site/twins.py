"""Markdown twins: each rendered page of ``build/rendered/docs`` as plain Markdown, written
into the built site beside its HTML, for readers that take Markdown (coding assistants; the
llms.txt convention, :mod:`verified_docs.site.llms_txt`).

**Where.** A twin's address is its page's address plus ``.md``; an address that ends in ``/``
gets ``index.html.md`` (llmstxt.org's rule for addresses without a file name):
``suspension/approval-gate/`` has ``suspension/approval-gate/index.html.md``, the home page
``index.html.md``. :func:`page_address` and :func:`twin_address` compute both from a page's
path below ``docs/``, as MkDocs and Zensical lay out the site.

**What.** The rendered page, with what only a browser reads turned into Markdown:

- each code block whole and as it is in the HTML: an example's block holds its whole program
  (the page is read after pymdownx.snippets' own pass, :func:`write_twins`, which replaced
  each include line by the file; :func:`twin_of` given a page that still holds one includes
  the file as :func:`~verified_docs.scenario.sections.program_view` shows it, the bytes the
  ledger fingerprints), an output block its golden output; the fence's title becomes a line above it,
  with the lines of the section the text is about; so the twin's code blocks are the page's
  code blocks, in order (the guard checks this, :mod:`verified_docs.site.twin_guard`);
- a claim's superscript link becomes its evidence in words and a link to it;
- an admonition or a tab becomes a bold title line above its content, dedented;
- the wrappers (``<div markdown>``, ``/// html | div``), the notes' ``<small>``/``<p>`` tags, the directive
  markers, the anchors, attribute lists and the authors' HTML comments go (a directive or
  claim comment the render stage left stays, for the guard to report);
- links are relative to the twin: a page link leads to that page's twin, an evidence link to
  the evidence on the HTML page, a file to the file.

Written here rather than converted back from the HTML (mkdocs-llmstxt's way, a MkDocs plugin
Zensical would not run): the rendered tree is our own output, and the same for both generators.
"""

from __future__ import annotations

import html
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from verified_docs.errors import SourceError
from verified_docs.files import write_atomic
from verified_docs.scenario.sections import program_view

TWIN_SUFFIX = ".md"

_FENCE = re.compile(r"^(?P<indent>[ ]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
# An admonition (!!! note "Title", ??? or ???+ for a collapsible one) or a tab (=== "Label",
# ===! to start a new set, ===+ selected).
_CONTAINER = re.compile(
    r'^(?P<indent>[ ]*)(?:(?:!!!|\?\?\?\+?)[ ]+(?P<kind>[\w-]+)(?:[ ]+[\w-]+)*(?:[ ]+"(?P<title>[^"]*)")?'
    r'|===[!+]?[ ]+"(?P<label>[^"]*)")[ ]*$'
)
_INCLUDE = re.compile(r"""^[ ]*--8<--[ ]+(?:"(?P<dq>[^"]+)"|'(?P<sq>[^']+)')[ ]*$""")
_WRAPPER_OPEN = re.compile(r"^[ ]*<div\b[^>]*\bmarkdown\b[^>]*>[ ]*$")
_WRAPPER_CLOSE = re.compile(r"^[ ]*</div>[ ]*$")
# A pymdownx.blocks.html wrapper (an example's div.vd-example): "/// html | div.vd-example" ... "///".
_BLOCK_OPEN = re.compile(r"^[ ]*///[ ]+html[ ]*\|.*$")
_BLOCK_CLOSE = re.compile(r"^[ ]*///[ ]*$")
_CLAIM = re.compile(
    r'<sup class="vd-claim">\[[^\]]*\]\((?P<target>[^\s)]+) "(?P<title>[^"]*)"\)'
    r'\{ aria-label="[^"]*" \}</sup>'
)
_NOTE = re.compile(r'<(?P<tag>small|p) class="verified-note"[^>]*>(?P<text>.*?)</(?P=tag)>', re.S)
_EMPTY_SPAN = re.compile(r'<span (?:data-vd-directive|id)="[^"]*"></span>')
# An attr_list: { .class #id key="value" ... } after an element, or {#id} after a heading.
_ATTR = r'(?:[#.][\w-]+|[\w-]+=(?:"[^"]*"|\'[^\']*\'|[^\s}]+))'
_ATTR_LIST = re.compile(r"[ ]?\{:?[ ]*" + _ATTR + r"(?:[ ]+" + _ATTR + r")*[ ]*\}")
_LINK_TARGET = re.compile(r'\]\((?P<target>[^()\s<>]+)(?P<title>[ ]+"[^"]*")?\)')
# A CommonMark code span: a run of backticks, then text (not past a blank line), then the same run.
_CODE = r"(?<!`)(?P<ticks>`+)(?!`)(?:(?!\n[ \t]*\n).)+?(?<!`)(?P=ticks)(?!`)"
CODE_SPAN = re.compile(_CODE, re.S)
# An author's HTML comment, or a code span (which may hold "<!--" as text): whichever starts first.
_COMMENT_OR_CODE = re.compile(rf"(?P<code>{_CODE})|<!--.*?-->", re.S)
# A comment the render stage should have replaced: left in, for the guard to report.
_DIRECTIVE_OR_CLAIM = re.compile(r"<!--\s*(?:claim|verified-[\w-]+)\b")
_SCHEME = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")
# Where a claim goes while the rest of its paragraph is converted (characters no page holds).
_PLACEHOLDER = "\x00{}\x01"
_FILLED = re.compile("\x00(\\d+)\x01")


def page_address(src_uri: str, directory_urls: bool = True) -> str:
    """The site path (posix, no leading ``/``) of the page built from ``src_uri`` (posix, below
    ``docs/``), as MkDocs addresses it: ``a/b.md`` -> ``a/b/``, ``a/index.md`` (or
    ``README.md``) -> ``a/``, ``index.md`` -> ``""``; without directory URLs ``a/b.html``."""
    stem = posixpath.splitext(src_uri)[0]
    folder, name = posixpath.split(stem)
    if name in ("index", "README"):
        if not directory_urls:
            return posixpath.join(folder, "index.html")
        return f"{folder}/" if folder else ""
    return f"{stem}/" if directory_urls else f"{stem}.html"


def twin_address(address: str) -> str:
    """The twin's site path for a page at ``address`` (:func:`page_address`): the address plus
    ``.md``, ``index.html.md`` where it ends in ``/`` or is the site's root."""
    return (address + "index.html" if address == "" or address.endswith("/") else address) + TWIN_SUFFIX


def relative(target: str, base: str) -> str:
    """The link from a document in folder ``base`` (site path, ``""`` for the root, else ending
    in ``/``) to ``target`` (site path; a folder address ends in ``/``)."""
    link = posixpath.relpath(target or ".", base.rstrip("/") or ".")
    if target == "" or target.endswith("/"):
        return "./" if link == "." else link + "/"
    return link


def _plain(text: str) -> str:
    """``text`` from a link title (character references and all) as Markdown that reads as the
    same words: the characters that would start code, emphasis, a link or a tag, or end a
    table's cell, escaped."""
    text = re.sub(r"([\\`*\[\]<|])", r"\\\1", html.unescape(text))
    return re.sub(r"(?<!\w)_|_(?!\w)", r"\\_", text)


def _outside_code(text: str, change: Callable[[str], str]) -> str:
    """``text`` with ``change`` applied to every part outside an inline code span."""
    out, at = [], 0
    for m in CODE_SPAN.finditer(text):
        out += [change(text[at : m.start()]), m.group(0)]
        at = m.end()
    return "".join(out + [change(text[at:])])


def _fence_attributes(info: str) -> tuple[str, dict[str, str], list[str]]:
    """(language, attributes, classes) of a fence's info string: ``python``, ``python
    title="x"`` or pymdownx's ``{ .python .vd-program title="x" data-vd-focus="3-9" }``."""
    info = info.strip()
    braced = info.startswith("{") and info.endswith("}")
    body = info[1:-1] if braced else info
    attributes = dict(re.findall(r'([\w-]+)="([^"]*)"', body))
    classes = re.findall(r"(?:^|\s)\.([\w-]+)", body)
    words = re.sub(r'[\w-]+="[^"]*"', "", body).split()
    language = classes[0] if braced and classes else (words[0] if words and not braced else "")
    return language, attributes, classes[1:] if braced else classes


@dataclass
class _Twin:
    """One page's conversion: ``src_uri`` (posix, below ``docs/``), the rendered ``file`` (for
    errors), ``base`` (the folder the result's links are relative to), the snippet ``bases``
    (absolute folders pymdownx.snippets includes from) and whether addresses are folders."""

    src_uri: str
    file: Path
    base: str
    bases: tuple[Path, ...]
    directory_urls: bool

    def convert(self, markdown: str) -> str:
        lines = list(enumerate(markdown.splitlines(), start=1))
        out: list[tuple[bool, str]] = []  # (is code, line)
        self._blocks(lines, out)
        return self._assemble(out)

    # The block structure: fences, containers, wrappers; every other line is text.

    def _blocks(self, lines: list[tuple[int, str]], out: list[tuple[bool, str]]) -> None:
        closers: list[re.Pattern[str]] = []  # what closes each wrapper open here, innermost last
        i = 0
        while i < len(lines):
            number, line = lines[i]
            fence = _FENCE.match(line)
            container = None if fence else _CONTAINER.match(line)
            if fence:
                i = self._fence(lines, i, fence, out)
            elif container:
                i = self._container(lines, i, container, out)
            elif _WRAPPER_OPEN.match(line) or _BLOCK_OPEN.match(line):
                closers.append(_WRAPPER_CLOSE if _WRAPPER_OPEN.match(line) else _BLOCK_CLOSE)
                i += 1
            elif closers and closers[-1].match(line):
                closers.pop()
                i += 1
            else:
                out.append((False, line))
                i += 1

    def _container(self, lines: list[tuple[int, str]], i: int, m: re.Match[str], out: list[tuple[bool, str]]) -> int:
        indent = m.group("indent")
        inner = indent + "    "
        end = i + 1
        while end < len(lines) and (not lines[end][1].strip() or lines[end][1].startswith(inner)):
            end += 1
        while end > i + 1 and not lines[end - 1][1].strip():
            end -= 1  # blank lines after the content belong to what follows
        title = m.group("label") if m.group("kind") is None else m.group("title")
        if title is None:  # an admonition without a title is titled by its kind
            title = m.group("kind").capitalize()
        if title:
            out += [(False, f"{indent}**{title}**"), (False, "")]
        body = [(n, indent + text[len(inner) :] if text.startswith(inner) else "") for n, text in lines[i + 1 : end]]
        self._blocks(body, out)
        return end

    def _fence(self, lines: list[tuple[int, str]], i: int, m: re.Match[str], out: list[tuple[bool, str]]) -> int:
        indent, mark = m.group("indent"), m.group("fence")
        end = i + 1
        closing = re.compile(rf"^[ ]{{0,{len(indent) + 3}}}{re.escape(mark[0])}{{{len(mark)},}}[ ]*$")
        while end < len(lines) and not closing.match(lines[end][1]):
            end += 1
        body = lines[i + 1 : end]
        language, attributes, classes = _fence_attributes(m.group("info"))
        content = self._content(body, indent)
        label = self._label(attributes, classes)
        if label:
            out += [(False, f"{indent}{label}")]
        ticks = "`" * max(3, 1 + max((len(r) for r in re.findall(r"`+", content)), default=0))
        out.append((True, f"{indent}{ticks}{language}"))
        out += [(True, f"{indent}{line}" if line else "") for line in content.split("\n")]
        out.append((True, f"{indent}{ticks}"))
        return end + 1

    def _content(self, body: list[tuple[int, str]], indent: str) -> str:
        """A fence's text: the file an include line names, as pymdownx.snippets includes it
        whole, or the lines as written, less the fence's indent, without the empty lines that
        end it (the HTML's code block shows none; the render stage's expansion of an include
        leaves one after the file's last line, :func:`~verified_docs.render.includes.expanded`)."""
        written = [text for _, text in body if text.strip()]
        include = _INCLUDE.match(written[0]) if len(written) == 1 else None
        if include:
            number = next(n for n, text in body if text.strip())
            return program_view(self._included(include.group("dq") or include.group("sq"), number)).text
        lines = [text[len(indent) :] if text.startswith(indent) else text.lstrip() for _, text in body]
        return "\n".join(lines).rstrip("\n")

    def _included(self, name: str, number: int) -> Path:
        for base in self.bases:
            if (base / name).is_file():
                return base / name
        raise SourceError.at(
            self.file,
            number,
            f"the Markdown twin cannot include {name!r}: no such file under pymdownx.snippets' base_path "
            f"({', '.join(str(b) for b in self.bases)})",
        )

    @staticmethod
    def _label(attributes: dict[str, str], classes: list[str]) -> str:
        """The line above a code block: its title, bold; for a program, that it is whole and
        which lines the text is about."""
        title = attributes.get("title")
        if not title:
            return ""
        label = f"**{_plain(title)}**"
        if "vd-program" in classes:
            focus, section = attributes.get("data-vd-focus"), attributes.get("data-vd-section")
            label += ", the whole program" + (f"; the text is about lines {focus}" if focus else "")
            label += f" (section `{section}`)" if section else ""
        return label + ":"

    # Inline: claims, notes, markers, attribute lists and links, outside code.

    def _assemble(self, out: list[tuple[bool, str]]) -> str:
        """The lines, each run of text lines converted inline (:meth:`_inline`); blank lines in
        a row outside code (as removed wrappers and markers leave them) become one."""
        lines: list[tuple[bool, str]] = []
        text: list[str] = []

        def flush() -> None:
            if text:
                lines.extend((False, x) for x in self._inline("\n".join(text)).split("\n"))
                text.clear()

        for is_code, line in out:
            if is_code:
                flush()
                lines.append((True, line))
            else:
                text.append(line)
        flush()
        kept: list[str] = []
        blank = True  # no blank lines at the start
        for is_code, line in lines:
            if not is_code and not line.strip():
                if not blank:
                    kept.append("")
                blank = True
                continue
            kept.append(line)
            blank = False
        return "\n".join(kept).rstrip("\n") + "\n"

    def _inline(self, text: str) -> str:
        claims: list[str] = []

        def claim(m: re.Match[str]) -> str:
            claims.append(f"({_plain(m.group('title'))}; [evidence]({self.href(m.group('target'), twin=False)}))")
            return _PLACEHOLDER.format(len(claims) - 1)

        text = _CLAIM.sub(claim, text)
        text = _COMMENT_OR_CODE.sub(
            lambda m: m.group(0) if m.group("code") or _DIRECTIVE_OR_CLAIM.match(m.group(0)) else "", text
        )
        text = _NOTE.sub(lambda m: m.group("text"), text)
        text = _EMPTY_SPAN.sub("", text)

        def links(part: str) -> str:
            part = _ATTR_LIST.sub("", part)
            return _LINK_TARGET.sub(
                lambda m: f"]({self.href(m.group('target'), twin=True)}{m.group('title') or ''})", part
            )

        text = _outside_code(text, links)
        text = re.sub(r"(?<=\S)[ ]*\x00", " \x00", text)  # a claim after a word or sign: one space
        return _FILLED.sub(lambda m: claims[int(m.group(1))], text)

    def href(self, target: str, *, twin: bool) -> str:
        """``target`` (a link of the rendered page) as a link from the result: another page's
        twin (``twin``) or HTML page, a file of the site, an address elsewhere unchanged."""
        if _SCHEME.match(target):
            return target
        path, hash_mark, fragment = target.partition("#")
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(self.src_uri), path)) if path else self.src_uri
        if resolved.endswith(".md"):
            site = page_address(resolved, self.directory_urls)
            site = twin_address(site) if twin else site
        else:
            site = resolved
        return relative(site, self.base) + (hash_mark + fragment)


@dataclass(frozen=True)
class Twin:
    """One page's twin: ``src_uri`` (posix, below ``docs/``), its page's ``address`` and the
    twin's (``twin``, site paths, :func:`page_address`), its ``text`` (links relative to the
    twin) and ``text_from_root`` (links relative to the site's root, for ``llms-full.txt``)."""

    src_uri: str
    address: str
    twin: str
    text: str
    text_from_root: str


def twin_of(
    markdown: str, src_uri: str, *, file: Path, bases: tuple[Path, ...], site_name: str, directory_urls: bool = True
) -> Twin:
    """The twin of the rendered page ``markdown`` (``src_uri`` below ``docs/``; ``file``, its
    path, for errors), including files from ``bases`` as pymdownx.snippets does. Raises
    :class:`SourceError` at the rendered page's line for an include of a file that is not there,
    or one :func:`~verified_docs.scenario.sections.program_view` refuses."""
    address = page_address(src_uri, directory_urls)
    twin = twin_address(address)
    folder = posixpath.dirname(twin)
    texts = []
    for base in (f"{folder}/" if folder else "", ""):
        converter = _Twin(src_uri, Path(file), base, tuple(bases), directory_urls)
        body = converter.convert(markdown)
        note = (
            f"> The Markdown twin of [this page]({relative(address, base)}) of *{_plain(site_name)}*: every "
            "program shown whole, as it ran in this build; every output as the build checked it; every "
            "claim with its evidence.\n"
        )
        texts.append(_with_note(body, note))
    return Twin(src_uri, address, twin, texts[0], texts[1])


def _with_note(body: str, note: str) -> str:
    """``body`` with ``note`` after its first level-1 heading (before everything when it has none)."""
    lines = body.split("\n")
    in_code = False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            in_code = not in_code
        elif not in_code and line.startswith("# "):
            rest = lines[i + 1 :]
            while rest and not rest[0].strip():
                rest.pop(0)
            return "\n".join(lines[: i + 1] + ["", note.rstrip("\n"), ""] + rest)
    return note + "\n" + body


def snippet_options(config: dict) -> dict | None:
    """pymdownx.snippets' options in a generated configuration, None when it does not use it."""
    for ext in config.get("markdown_extensions") or ():
        if ext == "pymdownx.snippets":
            return {}
        if hasattr(ext, "get") and "pymdownx.snippets" in ext:
            return dict(ext["pymdownx.snippets"] or {})
    return None


def snippet_bases(config: dict) -> tuple[Path, ...]:
    """pymdownx.snippets' ``base_path`` folders in a generated configuration (absolute there:
    :func:`~verified_docs.render.pages.generated_config`)."""
    for ext in config.get("markdown_extensions") or ():
        if hasattr(ext, "get") and "pymdownx.snippets" in ext:
            bases = (ext["pymdownx.snippets"] or {}).get("base_path", ["."])
            return tuple(Path(b) for b in ([bases] if isinstance(bases, str) else bases))
    return ()


def make_twins(docs_dir: Path, pages: tuple[str, ...], config: dict) -> Iterator[Twin]:
    """The twin of every page in ``pages`` (posix, below the rendered ``docs_dir``), made and
    not written. ``config`` is the generated ``mkdocs.yml``, read for the site's name, its
    snippet folders and ``use_directory_urls``. Each page is read as the generator's Markdown
    reads it after pymdownx.snippets (:func:`~verified_docs.render.includes.snippets_pass`: the
    render stage leaves a page's include lines to the generator when it shows an escaped
    marker, and the twin shows the marker as the HTML does). It reads only the rendered tree,
    never the built site, so the author loop makes the twins while a generator builds.
    Raises :class:`SourceError` as :func:`twin_of` does."""
    from verified_docs.render.includes import snippets_pass

    bases = snippet_bases(config)
    options = snippet_options(config)
    directory_urls = bool(config.get("use_directory_urls", True))
    for src_uri in pages:
        page = Path(docs_dir) / src_uri
        text = page.read_text(encoding="utf-8")
        yield twin_of(
            text if options is None else snippets_pass(text, options, page),
            src_uri,
            file=page,
            bases=bases,
            site_name=str(config.get("site_name", "")),
            directory_urls=directory_urls,
        )


def write_twins(docs_dir: Path, site_dir: Path, pages: tuple[str, ...], config: dict) -> Iterator[Twin]:
    """:func:`make_twins`, each twin written into ``site_dir`` (atomically) before it is yielded."""
    for twin in make_twins(docs_dir, pages, config):
        write_atomic(Path(site_dir) / twin.twin, twin.text)
        yield twin
