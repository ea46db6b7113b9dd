"""The pymdownx.snippets include lines a page holds as written, followed into the files they
include: an include whose file is not there fails at the including file's line, before the
generator runs. So does a line of the page that pymdownx.snippets would drop as a section
marker (``--8<-- [start:name]`` anywhere in it, even in inline code or a fence), which an
author writing about sections means to show.

In: a page's Markdown, its path and first line, and pymdownx.snippets' base paths (absolute).
Out: a :class:`~verified_docs.errors.Problem` per missing file, at the line that includes it,
with the lines that included that file (``included from page.md:3``), and one per page line
the extension would drop.

Why our own walk: with ``check_paths``, pymdownx.snippets raises ``SnippetMissingError``
naming only the missing path, from inside the generator, so the build ended in a traceback
that named neither the page nor the line. The grammar and the path resolution are still
pymdownx.snippets' own: its regular expressions and its preprocessor's
``parse_snippet_target`` and ``get_snippet_path``; only the line numbers are ours. The
programs a page shows hold no include line (:mod:`verified_docs.scenario.sections` refuses
one), so what is walked is what an author wrote by hand.

:func:`expanded` then replaces a rendered page's include lines by what they include, with
pymdownx.snippets' own preprocessor, so that the generator reads a page without them.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from verified_docs.errors import Location, Problem, SourceError


def _preprocessor(base_paths: tuple[str, ...]):
    """pymdownx.snippets' preprocessor for ``base_paths``, as a page's build configures it."""
    return _expander(json.dumps({"base_path": list(base_paths), "check_paths": True}, sort_keys=True))


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
        if not chain and not block and _dropped(pre, line):
            problems.append(_dropped_problem(path, number))
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


def _dropped(pre, line: str) -> bool:
    """Whether pymdownx.snippets drops ``line`` of a page: it holds a section marker not
    escaped with ``;`` (the extension looks only at the line's first marker)."""
    m = pre.RE_SNIPPET_SECTION.match(line)
    return m is not None and not m.group("escape")


def _dropped_problem(page: Path, number: int) -> Problem:
    return Problem(
        Location(page, number),
        "pymdownx.snippets drops this line from the page: it reads the --8<-- [start:...] or [end:...] "
        "in it as a section marker",
        (
            "to show the marker, write it as ;--8<-- (the extension removes the ';'); it looks at a line's "
            "first marker only, so give each marker a line of its own",
        ),
    )


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


@lru_cache(maxsize=8)
def _expander(options_json: str):
    """pymdownx.snippets' preprocessor configured with ``options_json`` (its options, as JSON:
    a hashable key for the cache)."""
    import markdown

    options = json.loads(options_json)
    md = markdown.Markdown(extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": options})
    return md.preprocessors["snippet"]


def snippets_pass(markdown: str, options: Mapping[str, Any], page: Path | None = None) -> str:
    """``markdown`` as the generator's Markdown reads it once pymdownx.snippets' preprocessor,
    configured with ``options`` (its entry in the generated configuration: ``base_path``
    absolute), is done with it: include lines replaced by what they include, section markers
    dropped, one ``;`` taken from an escaped marker. That preprocessor runs first of all in
    the generator's Markdown (priority 32), on the text split at ``\\n``. Raises
    :class:`~verified_docs.errors.SourceError` at ``page`` (the line of the first include line
    naming the section, when found) for what pymdownx.snippets refuses with ``check_paths``
    that :func:`include_problems` does not see first: a section or line range the file
    lacks."""
    if "8<-" not in markdown:
        return markdown
    from pymdownx.snippets import SnippetMissingError

    pre = _expander(json.dumps(dict(options), sort_keys=True))
    try:
        return "\n".join(pre.run(markdown.split("\n")))
    except SnippetMissingError as e:
        named = re.search(r"'([^']+)'", str(e))
        lines = markdown.split("\n")
        number = next(
            (i for i, line in enumerate(lines, 1) if "8<-" in line and named and f":{named.group(1)}" in line), 0
        )
        raise SourceError.at(
            page or Path("<page>"),
            number,
            f"pymdownx.snippets: {e}",
            "name a section the file marks with --8<-- [start:NAME] and [end:NAME], or include the whole file",
        ) from None


def expanded(markdown: str, options: Mapping[str, Any], page: Path | None = None) -> str:
    """``markdown`` (a rendered page) after :func:`snippets_pass`, for the generator to read:
    its own snippets pass then finds nothing to do, so it builds the same page. Returns
    ``markdown`` itself when the result still holds a snippets marker (an escaped one, which a
    second pass would read again), or when ``options`` set ``auto_append`` (the generator's
    pass appends those files again), leaving that page to the generator's pass. Raises as
    :func:`snippets_pass` does.

    Why: Zensical renders a page that holds an include line again on every build, whatever
    its cache holds (zensical/zensical#526, fixed by always rebuilding such pages in #530):
    the 25 pages that show programs cost about 1.5 s of each 2.7 s ``zensical build`` here."""
    if options.get("auto_append"):
        return markdown  # the generator's own pass would append those files a second time
    out = snippets_pass(markdown, options, page)
    return markdown if "8<-" in out else out
