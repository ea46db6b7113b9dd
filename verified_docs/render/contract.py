"""Render the contract table: each SPEC §10 rule with links to the pages whose verified
scenarios demonstrate it, or a plain statement that the Python port lacks it."""
from __future__ import annotations

import posixpath
from dataclasses import dataclass

from ..directive import Directive
from ..errors import Problem, SourceError
from ..rules import Coverage, Rule
from .templating import render


@dataclass(frozen=True)
class Row:
    """One table row: the rule and its status cell (Markdown)."""

    rule: Rule
    status: str


def _link(from_page: str, to_page: str, title: str) -> str:
    rel = posixpath.relpath(to_page, posixpath.dirname(from_page) or ".")
    return f"[{title}]({rel})"


def render_contract(directive: Directive, page: str, covered: list[Coverage], titles: dict[str, str]) -> str:
    """Markdown table for ``covered``; ``page`` is the contract page (posix, relative to docs);
    ``titles`` maps a page to its title. Raises :class:`SourceError` at the directive when an
    implemented rule has no verified scenario on any page."""
    rows = []
    for c in covered:
        if not c.rule.python:
            rows.append(Row(c.rule, f"Not in the Python port (only {c.rule.elsewhere} has it)."))
            continue
        if not c.pages:
            raise SourceError(Problem(directive.where, f"rule {c.rule.id} has no verified scenario on any page"))
        links = ", ".join(_link(page, p, titles.get(p, p)) for p in c.pages)
        rows.append(Row(c.rule, f"Verified: {links}"))
    return render("contract.md.j2", directive.indent, directive=directive, rows=rows)
