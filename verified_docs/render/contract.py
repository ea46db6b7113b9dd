"""Render the contract: each SPEC §10 rule with where it comes from, what the Python port
does with it (citing the installed source), and the pages whose verified scenarios show it."""

from __future__ import annotations

import html
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from verified_docs.errors import Problem, SourceError
from verified_docs.render.directive import Directive
from verified_docs.render.templating import code, render
from verified_docs.scenario.rules import Coverage, Rule, Source, code_problems, installed_package_dir

_STATUS_WORD = {"follows": "follows", "departs": "**departs**", "lacks": "lacks"}
_CODE_SPAN = re.compile(r"(`+).+?(?<!`)\1(?!`)")


def plain(text: str) -> str:
    """``text`` from the rules file, safe in Markdown: ``<``, ``>`` and ``&`` outside inline
    code become character references, so ``unresolved: <prompt>`` reads as written instead
    of opening an HTML tag that the browser then hides. Code spans are left alone (Markdown
    escapes them itself)."""
    out, pos = [], 0
    for m in _CODE_SPAN.finditer(text):
        out += [html.escape(text[pos : m.start()], quote=False), m.group(0)]
        pos = m.end()
    return "".join(out + [html.escape(text[pos:], quote=False)])


@dataclass(frozen=True)
class Section:
    """One rule as the page shows it: Markdown for its sources, its Python status (with the
    cited source lines), and the pages that demonstrate it or assert its departure."""

    rule: Rule
    title: str
    text: str
    status: str
    written_in: str
    sources: tuple[str, ...]
    python: str
    shown_on: str
    asserted_by: str


# What kind of document a rule's source is, by the prefix of its id in the rules file's
# `documents:` (the summary table's "Written in" column).
_KINDS = (
    ("spec", "SPEC §10"),
    ("adr-0026", "ADR-0026 (Proposed)"),
    ("changelog", "changelog"),
    ("measured", "measured here only"),
)


def written_in(rule: Rule) -> str:
    """The kinds of document ``rule`` is written in, in order, each once: ``SPEC §10``,
    ``ADR-0026 (Proposed)``, ``changelog``, ``measured here only``. Raises
    :class:`SourceError` at the rule for a document id with none of those prefixes."""
    kinds: list[str] = []
    for s in rule.sources:
        kind = next((label for prefix, label in _KINDS if s.document.id.startswith(prefix)), None)
        if kind is None:
            raise SourceError(
                Problem(
                    rule.where,
                    f"rule {rule.id}: document {s.document.id!r} is of no known kind",
                    ("a document id starts with " + ", ".join(p for p, _ in _KINDS),),
                )
            )
        if kind not in kinds:
            kinds.append(kind)
    return ", ".join(kinds)


def _link(from_page: str, to_page: str, title: str) -> str:
    rel = posixpath.relpath(to_page, posixpath.dirname(from_page) or ".")
    return f"[{title}]({rel})"


def source_text(s: Source) -> str:
    """``[document](url), where: “quote”`` (the document unlinked when it has no url), each
    text made :func:`plain`."""
    name = f"[{plain(s.document.name)}]({s.document.url})" if s.document.url else plain(s.document.name)
    quote = f": “{plain(s.quote)}”" if s.quote else ""
    return f"{name}, {plain(s.where)}{quote}"


def render_contract(
    directive: Directive, page: str, covered: list[Coverage], titles: dict[str, str], package: Path | None = None
) -> str:
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
            python = f"{plain(rule.note or '')} Not defined in the installed package: {', '.join(code(n) for n in rule.absent)}."
            if rule.elsewhere:
                python += f" Upstream says only {rule.elsewhere} ships it (not run here)."
        else:
            python = f"See {cited}." + (f" {plain(rule.note)}" if rule.note else "")
        asserting = []
        for name, title, pages in c.asserting:
            if not pages:
                raise SourceError(
                    Problem(directive.where, f"rule {rule.id}: {name}, which asserts the departure, is on no page")
                )
            asserting.append(_link(page, pages[0], title))
        shown = ", ".join(_link(page, p, titles.get(p, p)) for p in c.pages)
        sections.append(
            Section(
                rule,
                plain(rule.title),
                plain(rule.text),
                _STATUS_WORD[rule.python],
                written_in(rule),
                tuple(source_text(s) for s in rule.sources),
                python,
                shown,
                ", ".join(asserting),
            )
        )
    return render("contract.md.j2", directive.indent, directive=directive, sections=sections)
