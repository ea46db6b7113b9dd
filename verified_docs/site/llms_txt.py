"""``/llms.txt`` and ``/llms-full.txt``, as the llms.txt convention (llmstxt.org) lays them out,
and the pipeline step that writes them with every page's Markdown twin
(:mod:`verified_docs.site.twins`) into the built site, before the guard reads it.

``llms.txt``: an H1 with the site's name, a blockquote with its description, a paragraph on
what the links lead to, then one H2 section per section of the ``nav`` (pages outside any
section under "Other pages"), each a list of ``[title](twin): notes`` links to the twins, in
nav order; a page's notes are its first heading and its second-level headings.
``llms-full.txt``: the same H1 and blockquote, then every twin whole, in the same order, with
its links relative to the site's root.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from verified_docs.files import write_atomic
from verified_docs.site.markdown_blocks import block_tokens
from verified_docs.site.twins import Twin, make_twins

LLMS_TXT = "llms.txt"
LLMS_FULL = "llms-full.txt"
OTHER_PAGES = "Other pages"


@dataclass(frozen=True)
class Written:
    """What :func:`write_llm_files` wrote: the twins (in nav order), and the sizes in bytes of
    ``llms.txt`` and ``llms-full.txt``."""

    twins: tuple[Twin, ...]
    llms_txt: int
    llms_full: int

    def summary(self) -> str:
        return (
            f"{len(self.twins)} Markdown twins, {LLMS_TXT} ({self.llms_txt:,} bytes) and "
            f"{LLMS_FULL} ({self.llms_full:,} bytes)"
        )


def nav_sections(nav: Any, pages: tuple[str, ...]) -> list[tuple[str, list[tuple[str, str]]]]:
    """``nav`` (``mkdocs.yml``'s) as (section title, [(page title, src_uri), ...]) in order: a
    top-level section with every page below it (subsections flattened), pages outside any
    section gathered under :data:`OTHER_PAGES` where the first of them stands, with the
    ``pages`` the nav leaves out. A bare
    page (no title) is titled ``""``, for the caller to fill in."""
    sections: list[tuple[str, list[tuple[str, str]]]] = []
    loose: list[tuple[str, str]] = []

    def flatten(items: Any) -> list[tuple[str, str]]:
        found: list[tuple[str, str]] = []
        for item in items or ():
            if isinstance(item, str):
                found += [("", item)] if item.endswith(".md") else []
                continue
            for title, target in item.items():
                if isinstance(target, str):
                    found += [(str(title), target)] if target.endswith(".md") else []
                else:
                    found += flatten(target)
        return found

    for item in nav or ():
        if isinstance(item, str) or all(isinstance(t, str) for t in item.values()):
            if not loose:
                sections.append((OTHER_PAGES, loose))  # where the first such page stands
            loose += flatten([item])
        else:
            for title, target in item.items():
                sections.append((str(title), flatten(target)))
    listed = {uri for _, entries in sections for _, uri in entries}
    unlisted = [("", uri) for uri in pages if uri not in listed]
    if unlisted and not loose:
        sections.append((OTHER_PAGES, loose))
    loose += unlisted
    return [(title, entries) for title, entries in sections if entries]


@lru_cache(maxsize=128)
def headings(markdown: str) -> tuple[str, tuple[str, ...]]:
    """The first level-1 heading of ``markdown`` and its level-2 headings, as written
    (CommonMark). Memoised by the text: the author loop writes ``llms.txt`` on every save,
    from every twin, most of them unchanged; the twin's block parse is the one its guard reads
    (:func:`~verified_docs.site.markdown_blocks.block_tokens`)."""
    tokens = block_tokens(markdown)
    first, seconds = "", []
    for opening, inline in zip(tokens, tokens[1:], strict=False):
        if opening.type != "heading_open":
            continue
        if opening.tag == "h1" and not first:
            first = inline.content.strip()
        elif opening.tag == "h2":
            seconds.append(inline.content.strip())
    return first, tuple(seconds)


def _notes(twin: Twin, title: str) -> str:
    first, seconds = headings(twin.text)
    parts = [first] if first and first != title else []
    if seconds:
        parts.append("Sections: " + "; ".join(seconds))
    return (". ".join(p.rstrip(".") for p in parts) + ".") if parts else ""


def _head(config: Any) -> str:
    name = str(config.get("site_name", "")).strip()
    description = " ".join(str(config.get("site_description") or "").split())
    return f"# {name}\n" + (f"\n> {description}\n" if description else "")


def llms_txt(config: Any, twins: dict[str, Twin]) -> str:
    """The text of ``llms.txt`` for the generated ``config`` and ``twins`` (by src_uri)."""
    out = [
        _head(config),
        "Each link below leads to a page of this site as Markdown (its twin, at the page's address "
        "plus `.md`, or plus `index.html.md` where the address ends in `/`): the page's text, "
        "every example's program shown whole, the output "
        "the build checked it printed, and each claim with its evidence in words. "
        f"[{LLMS_FULL}]({LLMS_FULL}) holds every twin in one file, in this order.\n",
    ]
    for section, entries in nav_sections(config.get("nav"), tuple(twins)):
        lines = []
        for title, uri in entries:
            twin = twins.get(uri)
            if twin is None:
                continue
            title = title or headings(twin.text)[0] or posixpath.basename(uri)
            notes = _notes(twin, title)
            lines.append(f"- [{title}]({twin.twin})" + (f": {notes}" if notes else ""))
        if lines:
            out.append(f"## {section}\n\n" + "\n".join(lines) + "\n")
    return "\n".join(out)


def llms_full(config: Any, ordered: list[Twin]) -> str:
    """The text of ``llms-full.txt``: the head of ``llms.txt``, then every twin in ``ordered``
    whole, its links relative to the site's root."""
    intro = f"Every page of this site follows as Markdown, in the order of [{LLMS_TXT}]({LLMS_TXT}).\n"
    return "\n".join([_head(config), intro, *(t.text_from_root for t in ordered)])


@dataclass(frozen=True)
class LlmFiles:
    """Every page's twin, ``llms.txt`` and ``llms-full.txt``, made for one site and not yet
    written (:func:`plan_llm_files`): ``site_dir`` is where :meth:`write` puts them, ``every``
    each page's twin (src_uri -> twin), ``again`` the pages whose twin was made anew (the others
    were kept), ``twins`` the twins in nav order, ``index`` and ``full`` the two files' text."""

    site_dir: Path
    every: dict[str, Twin]
    twins: tuple[Twin, ...]
    again: frozenset[str]
    index: str
    full: str

    def write(self) -> Written:
        """Write the twins made anew, any kept twin missing from the site (a generator that
        cleans it, as Zensical does, removed it), ``llms.txt`` and ``llms-full.txt``, each
        atomically. Run after the generator and before the guard."""
        for twin in self.every.values():
            if twin.src_uri in self.again or not (self.site_dir / twin.twin).is_file():
                write_atomic(self.site_dir / twin.twin, twin.text)
        write_atomic(self.site_dir / LLMS_TXT, self.index)
        write_atomic(self.site_dir / LLMS_FULL, self.full)
        return Written(self.twins, len(self.index.encode("utf-8")), len(self.full.encode("utf-8")))


def plan_llm_files(
    config_path: Path,
    pages: tuple[str, ...],
    *,
    rewrite: Iterable[str] | None = None,
    kept: dict[str, Twin] | None = None,
) -> LlmFiles:
    """Make every page's twin, ``llms.txt`` and ``llms-full.txt`` for the site the generated
    configuration at ``config_path`` builds (its ``site_dir``), from the rendered pages under
    its ``docs_dir`` (``pages``: posix, below it), writing nothing: it reads only the rendered
    tree, so it may run while the generator builds. With ``rewrite`` (the author loop's
    rebuilt pages), only those twins are made again, and the others are taken from ``kept``
    (src_uri -> the twin made earlier; a page it lacks is made too). Raises
    :class:`~verified_docs.errors.SourceError` as :func:`~verified_docs.site.twins.twin_of` does."""
    from verified_docs.render.pages import load_config

    config_path = Path(config_path)
    config = load_config(config_path)
    docs_dir = config_path.parent / str(config.get("docs_dir", "docs"))
    site_dir = config_path.parent / str(config.get("site_dir", "site"))
    kept = kept or {}
    again = set(pages) if rewrite is None else {p for p in pages if p in set(rewrite) or p not in kept}
    made = {t.src_uri: t for t in make_twins(docs_dir, tuple(p for p in pages if p in again), config)}
    twins = {uri: made[uri] if uri in again else kept[uri] for uri in pages}
    order = [uri for _, entries in nav_sections(config.get("nav"), tuple(twins)) for _, uri in entries]
    ordered = tuple(twins[uri] for uri in dict.fromkeys(order) if uri in twins)
    index, full = llms_txt(config, twins), llms_full(config, list(ordered))
    return LlmFiles(site_dir, twins, ordered, frozenset(again), index, full)


def write_llm_files(
    config_path: Path,
    pages: tuple[str, ...],
    *,
    rewrite: Iterable[str] | None = None,
    kept: dict[str, Twin] | None = None,
) -> Written:
    """:func:`plan_llm_files`, written (:meth:`LlmFiles.write`): every page's twin,
    ``llms.txt`` and ``llms-full.txt`` in the built site. Run after the generator and before
    the guard. Raises as :func:`plan_llm_files` does."""
    return plan_llm_files(config_path, pages, rewrite=rewrite, kept=kept).write()
