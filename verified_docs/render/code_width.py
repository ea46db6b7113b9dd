"""The code-width rule: every line a page shows in a code block fits the block at 1280 px.

A code block draws its lines in the browser's monospace font and scrolls sideways when a line
is wider than the block. At the desktop size of the browser tests (1280 px wide,
``tests/browser/test_layout.py``), a block at the top level of a page or in a tab holds
:data:`MAX_COLUMNS` characters. Measured in Chromium on the built site, by the browser test's
criterion, in every code block of every page: Material's code font falls back to DejaVu Sans
Mono at 13.6 px, 8.18 px a character, in a box 656 px wide inside its padding, so 80
characters fit (1.3 px to spare) and 81 scroll, a highlighted program line as a line of
``x``. A tab then 72 characters fit (tab stops every 8 columns). A block in an admonition or a
collapsed box holds more, as its text is smaller (97 characters; 93 in an admonition in an
admonition), so one limit serves every block. A wide (CJK) character is counted as two, as
terminals count it: a CJK font draws it about an em wide (the test machine has no CJK font, and
draws a narrow placeholder).

Checked here, where the render stage knows which file lines a code block shows: each program an
example shows whole (:class:`~verified_docs.scenario.sections.ProgramView`, section markers
dropped) and each fence written in a page. Output blocks are left out: the site's stylesheet
wraps their lines (``.vd-output``), since a program prints what it prints; measured, no output
block scrolls, even with a line of 140 characters.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from verified_docs.errors import Location, Problem
from verified_docs.render.directive import fenced_blocks
from verified_docs.scenario.sections import program_view

MAX_COLUMNS = 80
# Browsers draw a tab to the next multiple of 8 columns (CSS tab-size; Material sets none).
TAB_SIZE = 8
RULE = f"code lines fit the page: at most {MAX_COLUMNS} characters (CONTRIBUTING.md, Rules a page must meet)"


def columns(line: str) -> int:
    """How many monospace columns ``line`` takes: a tab reaches the next multiple of
    :data:`TAB_SIZE`, a wide East Asian character takes two, a combining mark none."""
    width = 0
    for char in line:
        if char == "\t":
            width += TAB_SIZE - width % TAB_SIZE
        elif unicodedata.combining(char):
            continue
        elif unicodedata.east_asian_width(char) in ("W", "F"):
            width += 2
        else:
            width += 1
    return width


def wide_lines(path: Path, lines: Iterable[tuple[int, str]], shown_as: str) -> list[Problem]:
    """A problem at ``path`` and line for each of ``lines`` (1-based line of ``path``, the text
    the code block shows) wider than :data:`MAX_COLUMNS`; ``shown_as`` says what kind of block
    shows them, for the message. It names no page, so the problems of a program that several
    examples show are equal, and a caller collecting them keeps each once."""
    problems = []
    for number, text in lines:
        width = columns(text)
        if width > MAX_COLUMNS:
            problems.append(
                Problem(
                    Location(Path(path), number),
                    f"line is {width} characters wide, {width - MAX_COLUMNS} over the {MAX_COLUMNS} a code block "
                    f"shows at 1280 px without scrolling sideways ({shown_as})",
                    (
                        f"| {text}",
                        f"rule: {RULE}",
                        "fix: break the line inside its brackets, re-wrap a docstring or comment, or shorten "
                        "it (a name, a string split in two)",
                    ),
                    title="page rule broken",
                )
            )
    return problems


def _is_diagram(info: str) -> bool:
    # A mermaid fence is drawn as a diagram, not shown as code.
    return re.match(r"\{?\s*\.?mermaid\b", info) is not None


def shown_code_problems(page: Path, markdown: str, programs: Iterable[Path], first_line: int = 1) -> list[Problem]:
    """The lines wider than :data:`MAX_COLUMNS` that the page at ``page`` (its ``markdown``,
    from file line ``first_line``) shows in a code block: in each of ``programs`` (the files its
    examples show whole, each checked once) at the program's file and line, and in each fence
    written in the page (a diagram's excepted) at the page and line."""
    problems = []
    for path in dict.fromkeys(Path(p) for p in programs):
        view = program_view(path)
        # The view's text drops the file's trailing blank lines, so it may have fewer lines.
        shown = zip(view.file_lines, view.text.split("\n"), strict=False)
        problems += wide_lines(path, shown, "an example shows this program whole")
    for block in fenced_blocks(markdown, first_line):
        if not _is_diagram(block.info):
            problems += wide_lines(page, block.body, f"in the code fence opened at line {block.line}")
    return problems
