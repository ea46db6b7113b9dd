"""The pymdownx.snippets include lines a page holds as written, followed into the files they
include: an include whose file is not there fails at the including file's line, before the
generator runs.

In: a page's Markdown, its path and first line, and pymdownx.snippets' base paths (absolute).
Out: a :class:`~verified_docs.errors.Problem` per missing file, at the line that includes it,
with the lines that included that file (``included from page.md:3``).

Why our own walk: with ``check_paths``, pymdownx.snippets raises ``SnippetMissingError``
naming only the missing path, from inside the generator, so the build ended in a traceback
that named neither the page nor the line. The grammar and the path resolution are still
pymdownx.snippets' own: its regular expressions and its preprocessor's
``parse_snippet_target`` and ``get_snippet_path``; only the line numbers are ours. The
programs a page shows hold no include line (:mod:`verified_docs.scenario.sections` refuses
one), so what is walked is what an author wrote by hand.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from verified_docs.errors import Location, Problem


@lru_cache(maxsize=8)
def _preprocessor(base_paths: tuple[str, ...]):
    """pymdownx.snippets' preprocessor for ``base_paths``, as a page's build configures it."""
    import markdown

    md = markdown.Markdown(
        extensions=["pymdownx.snippets"],
        extension_configs={"pymdownx.snippets": {"base_path": list(base_paths), "check_paths": True}},
    )
    return md.preprocessors["snippet"]


def include_problems(markdown: str, page: Path, base_paths: list[str], first_line: int = 1) -> list[Problem]:
    """Every include line of ``markdown`` (the page ``page``, from its line ``first_line``),
    and of the files it includes, in turn, whose file pymdownx.snippets finds under none of
    ``base_paths``, each at the line that names it. An included file is read whole (a section
    or line range it is cut to is not cut out first), and a file is followed once per chain,
    as pymdownx.snippets does."""
    pre = _preprocessor(tuple(base_paths))
    return _walk(pre, markdown.splitlines(), Path(page), first_line, (), frozenset(), tuple(base_paths))


def _walk(
    pre, lines: list[str], path: Path, first_line: int, chain: tuple[Location, ...], seen: frozenset[str], bases
) -> list[Problem]:
    problems: list[Problem] = []
    block = False  # inside a --8<-- block, each line names a file
    for number, line in enumerate(lines, start=first_line):
        if not block and "8<-" not in line:
            continue
        named = _named(pre, line, block)
        if named is None:
            continue
        if named == "":  # the block's opening or closing marker
            block = not block
            continue
        target = pre.parse_snippet_target(named)
        found = pre.get_snippet_path(target["path"]) if target else None
        if found is None:
            problems.append(
                Problem(
                    Location(path, number),
                    f"--8<-- includes {named!r}, which is not there",
                    (
                        f"pymdownx.snippets looks for it below {', '.join(bases)}; fix the path or remove the line",
                        *(f"included from {c}" for c in chain),
                    ),
                )
            )
        elif found not in seen:
            nested = Path(found).read_text(encoding="utf-8", errors="replace").splitlines()
            problems += _walk(pre, nested, Path(found), 1, (Location(path, number), *chain), seen | {found}, bases)
    return problems


def _named(pre, line: str, block: bool) -> str | None:
    """What ``line`` includes: the path it names, "" for a block marker (``--8<--`` alone), or
    None for a line that includes nothing (escaped, commented out with ``;``, empty, or an
    inline include inside a block, which pymdownx.snippets skips)."""
    m = pre.RE_ALL_SNIPPETS.match(line)
    if m is not None:
        if m.group("escape") or (block and m.group("inline_marker")):
            return None
        if not m.group("inline_marker"):
            return ""
        named = m.group("snippet")[1:-1].strip()
    elif block:
        named = pre.RE_SNIPPET.match(line).group("snippet").strip()
    else:
        return None
    return named if named and not named.startswith(";") else None
