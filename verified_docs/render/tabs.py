"""Render a resolved :class:`~verified_docs.render.resolve.Example` as tabs."""
from __future__ import annotations

from .resolve import Example
from .templating import render


def render_example(example: Example) -> str:
    """Markdown for ``example``: a pymdownx.tabbed block, indented like its directive."""
    return render("example.md.j2", example.directive.indent, example=example)
