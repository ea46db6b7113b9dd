"""Render the contract: each SPEC §10 rule with where it comes from, what the Python port
does with it (citing the installed source), and the pages whose verified scenarios show it."""
from __future__ import annotations

import posixpath
from dataclasses import dataclass
from pathlib import Path

from ..directive import Directive
from ..errors import Problem, SourceError
from ..rules import Coverage, Rule, Source, code_problems, installed_package_dir
from .templating import code, render

_STATUS_WORD = {"follows": "follows", "departs": "**departs**", "lacks": "lacks"}


@dataclass(frozen=True)
class Section:
    """One rule as the page shows it: Markdown for its sources, its Python status (with the
    cited source lines), and the pages that demonstrate it or assert its departure."""

    rule: Rule
    status: str
    sources: tuple[str, ...]
    python: str
    shown_on: str
    asserted_by: str


def _link(from_page: str, to_page: str, title: str) -> str:
    rel = posixpath.relpath(to_page, posixpath.dirname(from_page) or ".")
    return f"[{title}]({rel})"


def source_text(s: Source) -> str:
    """``[document](url), where: “quote”`` (the document unlinked when it has no url)."""
    name = f"[{s.document.name}]({s.document.url})" if s.document.url else s.document.name
    quote = f": “{s.quote}”" if s.quote else ""
    return f"{name}, {s.where}{quote}"


def render_contract(directive: Directive, page: str, covered: list[Coverage], titles: dict[str, str],
                    package: Path | None = None) -> str:
    """Markdown for ``covered``: a summary table, then a section per rule. ``page`` is the
    contract page (posix, relative to docs); ``titles`` maps a page to its title; ``package``
    is the site-packages folder holding the toolnexus whose lines the rules cite (default:
    the installed one). Raises :class:`SourceError` at the directive when a rule the port
    implements has no verified scenario on any page, when a departure's scenario is on no
    page, or when a cited line no longer holds its text."""
    drift = code_problems([c.rule for c in covered], package or installed_package_dir())
    if drift:
        raise SourceError(*drift)
    sections = []
    for c in covered:
        rule = c.rule
        if rule.python != "lacks" and not c.pages:
            raise SourceError(Problem(directive.where, f"rule {rule.id} has no verified scenario on any page"))
        cited = ", ".join(code(ref.at) for ref in rule.code)
        if rule.python == "lacks":
            python = f"{rule.note} Not defined in the installed package: {', '.join(code(n) for n in rule.absent)}."
            if rule.elsewhere:
                python += f" Only {rule.elsewhere} has it."
        else:
            python = f"See {cited}." + (f" {rule.note}" if rule.note else "")
        asserting = []
        for name, title, pages in c.asserting:
            if not pages:
                raise SourceError(Problem(directive.where, f"rule {rule.id}: {name}, which asserts the departure, "
                                                           "is on no page"))
            asserting.append(_link(page, pages[0], title))
        shown = ", ".join(_link(page, p, titles.get(p, p)) for p in c.pages)
        sections.append(Section(rule, _STATUS_WORD[rule.python], tuple(source_text(s) for s in rule.sources),
                                python, shown, ", ".join(asserting)))
    return render("contract.md.j2", directive.indent, directive=directive, sections=sections)
