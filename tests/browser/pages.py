"""What the browser tests expect the site to show, read from the sources, not from the site.

``site_pages()`` lists every page (``docs/**/*.md``) with its URL; ``expected_examples()``
says, for one page, which example tab sets it shows, in order, and for each language tab the
program its code block must hold (whole, folded around the directive's section) and the golden
output its output block must hold.
Both are plain functions so tests can be parametrized with them at collection time.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from verified_docs.render.directive import Directive, find_directives
from verified_docs.run.languages import LANGUAGES
from verified_docs.scenario.records import Program, Scenario
from verified_docs.scenario.sections import ProgramView, Section, parse_sections, program_view

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SCREENSHOTS = ROOT / "build" / "screenshots"
LANGUAGE_LABELS = frozenset(language.display for language in LANGUAGES.values())


@dataclass(frozen=True)
class Page:
    """One page: its Markdown ``source`` and its ``url`` relative to the site root
    (MkDocs' directory URLs: ``a/b.md`` is ``a/b/``, ``a/index.md`` is ``a/``)."""

    source: Path
    url: str

    @property
    def slug(self) -> str:
        """A file-name-safe name for screenshots: ``suspension-approval-gate``, ``index``."""
        return self.url.strip("/").replace("/", "-") or "index"

    def __str__(self) -> str:
        return self.source.relative_to(ROOT).as_posix()


def site_pages() -> list[Page]:
    """Every page of the site, in file order. The strict build refuses pages outside ``nav``,
    so the Markdown files and the built pages are the same set."""
    pages = []
    for source in sorted(DOCS.rglob("*.md")):
        rel = source.relative_to(DOCS).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "index" else rel.parts
        pages.append(Page(source, "".join(f"{part}/" for part in parts)))
    return pages


@dataclass(frozen=True)
class ExpectedTab:
    """One language's tab of an example: its ``label``, the ``code`` section it is about and
    the ``whole`` program its code block holds (both ``None`` for ``output="only"``), and the
    ``output`` golden file of run ``run`` (both ``None`` for ``output="no"`` or a support file)."""

    label: str
    program: Path
    code: Section | None
    output: Path | None
    whole: ProgramView | None = None
    run: str | None = None


@dataclass(frozen=True)
class ExpectedExample:
    """The tab set one ``verified-example`` directive puts on its page."""

    directive: Directive
    tabs: tuple[ExpectedTab, ...]

    def __str__(self) -> str:
        return str(self.directive)


def expected_examples(page: Page, scenarios: dict[str, Scenario]) -> list[ExpectedExample]:
    """The example tab sets of ``page`` in page order (other directives render no tabs)."""
    examples = []
    for d in find_directives(page.source.read_text(encoding="utf-8"), page.source):
        if d.kind != "example":
            continue
        scenario = scenarios[d.scenario]
        tabs = []
        for language, program, golden, run in _programs(d, scenario):
            shows_code = d.output != "only"
            code = parse_sections(program.path)[d.section] if shows_code else None
            whole = program_view(program.path) if shows_code else None
            output = golden if d.output != "no" else None
            tabs.append(
                ExpectedTab(LANGUAGES[language].display, program.path, code, output, whole, run if output else None)
            )
        examples.append(ExpectedExample(d, tuple(tabs)))
    return examples


def _programs(d: Directive, scenario: Scenario) -> list[tuple[str, Program, Path | None, str | None]]:
    """(language, program, golden output or None, run name or None) for the directive, in
    LANGUAGES order: a support file, or the program in the run the directive names (or the
    only run it is in)."""
    support = [p for p in scenario.support if p.path.stem == d.program]
    if support:
        found = {p.language: (p, None, None) for p in support}
    else:
        runs = [r for r in scenario.runs if any(p.path.stem == d.program for p in r.programs.values())]
        if d.run:
            runs = [r for r in runs if r.name == d.run]
        found = {
            lang: (p, p.golden_path, runs[0].name) for lang, p in runs[0].programs.items() if p.path.stem == d.program
        }
    return [(lang, *found[lang]) for lang in LANGUAGES if lang in found]
