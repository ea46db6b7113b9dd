"""Render a resolved :class:`~verified_docs.render.resolve.Example` as tabs."""

from __future__ import annotations

import posixpath

from verified_docs.reader_commands import try_command
from verified_docs.render.resolve import Example
from verified_docs.render.templating import render

# Where the built site keeps a copy of every verified program, for the "whole file" links.
SOURCE_DIR = "verified-src"


def source_link(program_path: str, page_src_uri: str) -> str:
    """The relative link from the page at ``page_src_uri`` (below ``docs/``) to the published
    copy of ``program_path`` (relative to the project root); MkDocs checks and rewrites it."""
    return posixpath.relpath(f"{SOURCE_DIR}/{program_path}", posixpath.dirname(page_src_uri) or ".")


def render_example(example: Example, page_src_uri: str) -> str:
    """Markdown for ``example`` on the page ``page_src_uri``: a pymdownx.tabbed block, indented
    like its directive, each tab ending with a link to its whole program; above an output, the
    command that prints it (:func:`~verified_docs.reader_commands.try_command`)."""
    links = {tab.program_path: source_link(tab.program_path, page_src_uri) for tab in example.tabs}
    command = try_command(example.directive.scenario, example.run) if example.run else ""
    return render("example.md.j2", example.directive.indent, example=example, links=links, try_command=command)
