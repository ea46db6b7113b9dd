"""Render a resolved :class:`~verified_docs.render.resolve.Example` with jinja2."""
from __future__ import annotations

from functools import lru_cache

import jinja2

from .resolve import Example


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("verified_docs.render", "templates"),
        autoescape=False,  # Markdown out, not HTML
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render_example(example: Example) -> str:
    """Markdown for ``example``: a tabbed block, indented like the directive it replaces."""
    text = _environment().get_template("example.md.j2").render(example=example)
    indent = example.directive.indent
    lines = text.strip("\n").splitlines()
    return "\n".join((indent + line) if line.strip() else "" for line in lines) + "\n"
