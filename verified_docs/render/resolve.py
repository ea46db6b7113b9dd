"""Check a directive against the scenarios and the ledger, and gather what its tabs show."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from verified_docs.errors import Problem, SourceError
from verified_docs.ledger import CHANGED, Ledger, fingerprint, sha256_file
from verified_docs.render.directive import Directive
from verified_docs.run.languages import LANGUAGES
from verified_docs.scenario.load import find_scenario
from verified_docs.scenario.records import Program, Run, Scenario
from verified_docs.scenario.sections import WHOLE, Section, get_section, program_view


@dataclass(frozen=True)
class Tab:
    """One language's tab. Paths are posix, relative to the project root (pymdownx base_path);
    ``fence`` is a backtick run longer than any inside the code. The code block shows the whole
    program (``shown_lines`` lines as the page shows them, markers dropped) with ``focus``, the
    first and last shown line of ``section``, in view and the rest folded; ``not_run`` are the
    1-based file lines marked ``# not run`` (shown, but they did not run)."""

    language: str
    label: str
    highlight: str
    file_name: str
    program_path: str
    section: str
    golden_path: str
    fence: str
    focus: tuple[int, int] = (1, 1)
    shown_lines: int = 0
    not_run: tuple[int, ...] = ()


@dataclass(frozen=True)
class Example:
    """A resolved directive: its tabs in language order plus what the ledger vouches for;
    ``run`` is the run whose programs it shows (None for a support file)."""

    directive: Directive
    tabs: tuple[Tab, ...]
    toolnexus: str
    run: str | None = None

    @property
    def show_code(self) -> bool:
        return self.directive.output != "only"

    @property
    def show_output(self) -> bool:
        return self.directive.output != "no"


def _fence_for(*texts: str) -> str:
    longest = max((len(run) for t in texts for run in re.findall(r"`+", t)), default=0)
    return "`" * max(3, longest + 1)


def resolve(directive: Directive, scenarios: dict[str, Scenario], ledger: Ledger, root: Path) -> Example:
    """Build the :class:`Example` for ``directive``.

    Raises :class:`SourceError` at the directive's page and line when the scenario, program or
    section is unknown (listing the valid names), when the section is malformed, or when the
    ledger does not show this exact program, section and golden output passing in this build.
    """
    scenario = find_scenario(scenarios, directive.scenario, directive.where)
    support = [p for p in scenario.support if p.path.stem == directive.program]
    if support:
        if directive.output != "no":
            raise SourceError(
                Problem(
                    directive.where,
                    f"'{directive.program}' is a support file of '{scenario.name}'; it prints "
                    'nothing of its own, so use output="no"',
                )
            )
        return Example(directive, tuple(_tab(p, directive, ledger, root, None) for p in support), ledger.toolnexus)
    run = _run_shown(directive, scenario)
    programs = {lang: p for lang, p in run.programs.items() if p.path.stem == directive.program}
    tabs = [_tab(programs[lang], directive, ledger, root, run.name) for lang in LANGUAGES if lang in programs]
    return Example(directive, tuple(tabs), ledger.toolnexus, run.name)


def _run_shown(directive: Directive, scenario: Scenario) -> Run:
    """The run of ``scenario`` whose ``directive.program`` the example shows: the one named by
    ``run=``, else the first one running it (the only one, unless the output is hidden). Raises :class:`SourceError` at the directive for a
    program no run runs, a run that does not run it, or several runs and no ``run=`` while the
    output is shown."""
    where = directive.where
    runs = [run for run in scenario.runs if any(p.path.stem == directive.program for p in run.programs.values())]
    if not runs:
        stems = sorted(
            {p.path.stem for run in scenario.runs for p in run.programs.values()}
            | {p.path.stem for p in scenario.support}
        )
        raise SourceError(
            Problem(
                where,
                f"scenario '{scenario.name}' has no program '{directive.program}'",
                (f"valid programs: {', '.join(stems)}",),
            )
        )
    names = [run.name for run in runs]
    if directive.run:
        if directive.run not in names:
            raise SourceError(
                Problem(
                    where,
                    f"program '{directive.program}' does not run in run '{directive.run}'",
                    (f"valid runs: {', '.join(names)}",),
                )
            )
        runs = [run for run in runs if run.name == directive.run]
    elif len(runs) > 1 and directive.output != "no":
        raise SourceError(
            Problem(
                where,
                f"program '{directive.program}' runs in several runs; say whose output to show with run=\"...\"",
                (f"valid runs: {', '.join(names)}",),
            )
        )
    return runs[0]


def _tab(program: Program, directive: Directive, ledger: Ledger, root: Path, run_name: str | None) -> Tab:
    """One language's tab, after checking the ledger vouches for this exact file, section and
    (when ``run_name`` is given) that run's golden output."""
    where = directive.where
    rel = program.path.resolve().relative_to(root.resolve()).as_posix()
    section = get_section(program.path, directive.section, referenced_from=where)
    doubt = ledger.doubt(rel, program.path)
    if doubt not in (None, CHANGED):
        raise SourceError(
            Problem(
                where,
                f"{rel} {doubt} in this build; the page cannot show it",
                ("run `nox -s docs`, which verifies every example before building",),
            )
        )
    entry = ledger.programs[rel]
    stale = [f"{rel} {doubt}"] if doubt else []
    if entry["sections"].get(directive.section) != fingerprint(section.text):
        stale.append(f"section '{directive.section}' differs from the verified one")
    view = program_view(program.path)
    if entry["sections"].get(WHOLE) != fingerprint(view.text):
        stale.append(f"{rel} as a page shows it whole differs from the verified one")
    golden = program.golden_path
    if run_name is not None:
        run_entry = entry["runs"].get(run_name, {})
        if not golden.is_file() or run_entry.get("golden_sha256") != sha256_file(golden):
            stale.append(f"{golden.name} changed after it was verified")
    if stale:
        raise SourceError(Problem(where, "example is stale: " + "; ".join(stale), ("run `nox -s docs` again",)))
    language = LANGUAGES[program.language]
    # The code block shows the whole program (folded around the section), so every line counts.
    not_run = _lines_that_ran(entry, section, rel, language.traced, where, whole=directive.output != "only")
    golden_text = golden.read_text(encoding="utf-8") if run_name is not None else ""
    return Tab(
        language=program.language,
        label=language.display,
        highlight=language.fence,
        file_name=program.path.name,
        program_path=rel,
        section=directive.section,
        golden_path=golden.resolve().relative_to(root.resolve()).as_posix() if run_name is not None else "",
        fence=_fence_for(view.text, golden_text),
        focus=view.shown_range(section),
        shown_lines=len(view.file_lines),
        not_run=not_run,
    )


def _lines_that_ran(
    entry: dict, section: Section, rel: str, measurable: bool, where, whole: bool = True
) -> tuple[int, ...]:
    """Check that every executable line of ``section`` (of the whole program when ``whole``,
    as a code block shows it) ran in the verified run (line coverage recorded in the ledger);
    return the lines marked ``# not run``. Raises
    :class:`SourceError` at the directive for a line that never ran, or a marked line that ran."""
    if not measurable:
        return ()
    measured = entry.get("lines")
    if measured is None:
        raise SourceError(
            Problem(
                where,
                f"{rel} was verified without line coverage; the page cannot tell whether the lines it shows ran",
                ("run `nox -s docs` again",),
            )
        )
    shown = WHOLE if whole else section.name
    lines = measured.get(shown, {"unrun": [], "not_run": [], "marked_ran": []})
    text = section.path.read_text(encoding="utf-8").splitlines()

    def quoted(numbers: list[int]) -> tuple[str, ...]:
        return tuple(f"{rel}:{n}: {text[n - 1].strip()}" for n in numbers)

    if lines["unrun"]:
        what = f"{rel}, shown whole around section '{section.name}'," if whole else f"section '{section.name}' of {rel}"
        raise SourceError(
            Problem(
                where,
                f"{what} shows {len(lines['unrun'])} line(s) that never ran in the verified run",
                quoted(lines["unrun"])
                + (
                    "make the example run them, or mark a line shown only for completeness "
                    "with `# not run` (the page then says it did not run)",
                ),
            )
        )
    if lines["marked_ran"]:
        raise SourceError(
            Problem(
                where, f"{rel} marks line(s) `# not run` that ran", quoted(lines["marked_ran"]) + ("remove the marker",)
            )
        )
    return tuple(lines["not_run"])
