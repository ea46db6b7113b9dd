"""The jinja2 environment shared by the renderers, and the small Markdown helpers they use."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

import jinja2

from verified_docs.render.directive import marker


def code(value: Any) -> str:
    """Inline Markdown code for ``value``, with a backtick run longer than any inside it."""
    text = value if isinstance(value, str) else json.dumps(value)
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def plain(text: str) -> str:
    """``text`` with the punctuation Python-Markdown lets a backslash escape escaped, and ``<``
    and ``&`` as entities, so it reads as written (``ask_human`` stays one word)."""
    text = text.replace("&", "&amp;").replace("<", "&lt;")
    return re.sub(r"([\\`*_{}\[\]()#+!])", r"\\\1", text)


def indent_block(text: str, indent: str) -> str:
    """``text`` without surrounding blank lines, each non-blank line prefixed with ``indent``."""
    lines = text.strip("\n").splitlines()
    return "\n".join((indent + line) if line.strip() else "" for line in lines) + "\n"


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """Templates from ``render/templates``; Markdown out (no autoescape); unknown names fail."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("verified_docs.render", "templates"),
        autoescape=False,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["code"] = code
    env.filters["plain"] = plain
    # Every template puts marker(directive) on an element inside the block it renders, so the
    # guard can check in the HTML that each directive came out as that block.
    env.globals["marker"] = marker
    return env


def render(template: str, indent: str = "", **context: Any) -> str:
    """Render ``template`` with ``context`` and indent the result like the directive it replaces."""
    return indent_block(environment().get_template(template).render(**context), indent)
