"""``python -m verified_docs new <guide>/<name>`` (what ``nox -s new`` runs): scaffold an example.

Writes ``snippets/<guide>/<name>/`` (a program and its ``scenario.yaml``) and
``docs/<guide>/<name>.md`` from ``templates/``, adds the page to ``mkdocs.yml``'s nav, then
verifies the example with ``--update-outputs`` so its golden output comes from a real run.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import jinja2

from verified_docs.errors import UsageError
from verified_docs.files import write_atomic

TEMPLATES = Path(__file__).parent / "templates"
_PART = r"[a-z0-9][a-z0-9-]*"
_NAME = re.compile(rf"^({_PART})/({_PART})$")
_NAV_PAGE = re.compile(r"^(?P<indent>\s*)- .*:\s*(?P<page>\S+\.md)\s*$")
# A title YAML reads as plain text unquoted, as the nav's own entries are written.
_PLAIN_TITLE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ,.'()/-]*$")
# The program's docstring opens with the title: past this, its first line would be wider than a
# code block (the render stage's 80 characters, less the three quotes).
MAX_TITLE = 77


@dataclass(frozen=True)
class Example:
    """Where a new example's files go, below the project ``root``."""

    root: Path
    guide: str
    name: str
    title: str

    @property
    def scenario(self) -> str:
        return f"{self.guide}/{self.name}"

    @property
    def folder(self) -> Path:
        return self.root / "snippets" / self.guide / self.name

    @property
    def program(self) -> Path:
        return self.folder / f"{self.name.replace('-', '_')}.py"

    @property
    def page(self) -> Path:
        return self.root / "docs" / self.guide / f"{self.name}.md"

    @property
    def nav_page(self) -> str:
        return f"{self.guide}/{self.name}.md"


def parse_name(text: str) -> tuple[str, str]:
    """``"suspension/approve-with-a-note"`` -> ``("suspension", "approve-with-a-note")``.
    Raises :class:`UsageError` for anything but two lower-case, dash-separated parts."""
    found = _NAME.match(text)
    if found is None:
        raise UsageError(
            f"expected <guide>/<name> in lower case with dashes, like suspension/approve-with-a-note; got {text!r}"
        )
    return found.group(1), found.group(2)


def check_title(title: str) -> str:
    """``title`` when it fits on the program's first line and in a docstring; raises
    :class:`UsageError` naming the limit otherwise."""
    if not title.strip() or len(title) > MAX_TITLE or '"""' in title or "\n" in title or "\\" in title:
        raise UsageError(
            f"--title must be one line of at most {MAX_TITLE} characters without a backslash or three "
            f"double quotes (it opens the program's docstring); got {title!r}"
        )
    return title


def _nav_title(title: str) -> str:
    return title if _PLAIN_TITLE.match(title) and not title.endswith(":") else json.dumps(title)


def _render(template: str, **values: str) -> str:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), undefined=jinja2.StrictUndefined, keep_trailing_newline=True
    )
    return env.get_template(template).render(**values)


def files(example: Example) -> dict[Path, str]:
    """The program, ``scenario.yaml`` and page for ``example``, by path."""
    values = {
        "title": example.title,
        "title_yaml": json.dumps(example.title),  # a JSON string is a YAML string, whatever it holds
        "scenario": example.scenario,
        "program": example.program.name,
        "program_stem": example.program.stem,
    }
    return {
        example.program: _render("program.py.j2", **values),
        example.folder / "scenario.yaml": _render("scenario.yaml.j2", **values),
        example.page: _render("page.md.j2", **values),
    }


def with_nav_entry(config: str, example: Example) -> tuple[str, int]:
    """``config`` (mkdocs.yml's text) with ``- <title>: <guide>/<name>.md`` after the last nav
    entry of a page in the same guide, at its indentation (else at the end of the nav), and the
    1-based line it went to. Only that line is added: comments and order stay as written.
    Raises :class:`UsageError` when the file has no top-level ``nav:``."""
    lines = config.splitlines(keepends=True)
    try:
        start = next(i for i, line in enumerate(lines) if line.rstrip() == "nav:")
    except StopIteration:
        raise UsageError("mkdocs.yml has no top-level nav: to add the page to") from None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].strip() and not lines[i][0].isspace()), len(lines))
    entries = [(i, m) for i in range(start + 1, end) if (m := _NAV_PAGE.match(lines[i].rstrip("\n")))]
    same_guide = [(i, m) for i, m in entries if m.group("page").startswith(f"{example.guide}/")]
    at, indent = (same_guide[-1][0] + 1, same_guide[-1][1].group("indent")) if same_guide else (end, "  ")
    while at > start + 1 and not lines[at - 1].strip():  # never after the blank lines that end the nav
        at -= 1
    lines.insert(at, f"{indent}- {_nav_title(example.title)}: {example.nav_page}\n")
    return "".join(lines), at + 1


def scaffold(example: Example) -> list[str]:
    """Write the example's files and its nav line; the lines to print, one per file.

    Raises :class:`UsageError`, writing nothing, when any of the files exists or the nav
    already lists the page."""
    config_path = example.root / "mkdocs.yml"
    config = config_path.read_text(encoding="utf-8")
    taken = [p for p in [example.folder, example.page] if p.exists()]
    if taken:
        raise UsageError(f"{taken[0]} already exists; nothing written (pick another name, or edit what is there)")
    if re.search(rf":\s*{re.escape(example.nav_page)}\s*$", config, re.MULTILINE):
        raise UsageError(f"{config_path} already lists {example.nav_page} in its nav; nothing written")
    new_config, line = with_nav_entry(config, example)
    written = files(example)
    for path, text in written.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text)
    write_atomic(config_path, new_config)
    rel = {p: p.relative_to(example.root) for p in written}
    return [
        f"wrote {rel[example.program]}: the program (change the tool and the Answer)",
        f"wrote {rel[example.folder / 'scenario.yaml']}: what the build checks the run did (change it with the program)",
        f"wrote {rel[example.page]}: the page (say what the example shows; one claim to start from)",
        f"added line {line} to mkdocs.yml: {example.title} in the nav (move it where it belongs)",
    ]


def main(argv: list[str] | None = None) -> int:
    """Scaffold, then verify with ``--update-outputs``; exit 0, 1 when the verification failed,
    2 on bad input (nothing written)."""
    cli = argparse.ArgumentParser(prog="verified_docs new", description=__doc__)
    cli.add_argument("scenario", help="<guide>/<name>, e.g. suspension/approve-with-a-note")
    cli.add_argument("--title", default=None, help="the page's title (default: the name, in words)")
    cli.add_argument("--root", type=Path, default=Path.cwd(), help="project root (default: cwd)")
    args = cli.parse_args(argv)
    root = args.root.resolve()
    try:
        guide, name = parse_name(args.scenario)
        example = Example(root, guide, name, check_title(args.title or name.replace("-", " ").capitalize()))
        report = scaffold(example)
    except UsageError as e:
        print(f"new: {e}", file=sys.stderr)
        return 2
    print("\n".join(report), flush=True)
    # Its own process: verify moves into a network namespace of its own.
    command = [sys.executable, "-m", "verified_docs", "verify", "--update-outputs", "--only", example.scenario]
    done = subprocess.run([*command, "--root", str(root)], cwd=root, check=False)
    if done.returncode != 0:
        print(f"new: the first verification failed ({' '.join(command)}); see above", file=sys.stderr)
        return 1
    print(
        "\nnext:\n"
        f"  nox -s serve                      # the page at once, verified again on every save\n"
        f"  nox -s release-matrix -- --only {example.scenario}   # where it passes; commit rules/release-matrix.json\n"
        f"  nox -s docs                       # the whole build, every check"
    )
    return 0
