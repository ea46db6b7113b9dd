"""A page's hand-written pymdownx.snippets include lines, followed into what they include: a
missing file fails at the including file's line (render/includes.py), where pymdownx.snippets
itself raises from inside the generator naming only the path."""

from __future__ import annotations

from pathlib import Path

import markdown
import pytest
from pymdownx.snippets import SnippetMissingError

from verified_docs.errors import Location
from verified_docs.render.includes import include_problems


def pymdownx_fails(text: str, root: Path) -> bool:
    """Whether pymdownx.snippets itself (check_paths, as mkdocs.yml sets it) refuses ``text``."""
    md = markdown.Markdown(
        extensions=["pymdownx.snippets"],
        extension_configs={"pymdownx.snippets": {"base_path": [str(root)], "check_paths": True}},
    )
    try:
        md.preprocessors["snippet"].run(text.splitlines())
    except SnippetMissingError:
        return True
    return False


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "here.md").write_text("Here.\n")
    (tmp_path / "parts" / "nested.md").write_text('First.\n--8<-- "parts/gone.md"\n')
    (tmp_path / "parts" / "loop.md").write_text('--8<-- "parts/loop.md"\n')
    return tmp_path


@pytest.mark.parametrize(
    "text",
    [
        '--8<-- "parts/here.md"\n',
        ';--8<-- "parts/gone.md"\n',  # escaped: shown, not included
        '--8<-- ";parts/gone.md"\n',  # commented out
        "--8<--\nparts/here.md\n\n--8<--\n",  # a block
        '--8<-- "parts/loop.md"\n',  # includes itself: followed once
        "No include here.\n",
    ],
    ids=["found", "escaped", "commented", "block", "loop", "none"],
)
def test_what_pymdownx_finds_is_no_problem(root: Path, text: str) -> None:
    page = root / "docs" / "page.md"
    assert include_problems(text, page, [str(root)]) == []
    assert not pymdownx_fails(text, root)


def test_a_missing_file_fails_at_the_pages_line(root: Path) -> None:
    page = root / "docs" / "page.md"
    text = '# Page\n\n--8<-- "parts/here.md"\n\n--8<-- "parts/gone.md"\n'
    assert pymdownx_fails(text, root)
    (problem,) = include_problems(text, page, [str(root)])
    assert problem.where == Location(page, 5)
    assert problem.what == "--8<-- includes 'parts/gone.md', which is not there"
    assert problem.details == (f"pymdownx.snippets looks for it below {root}; fix the path or remove the line",)


def test_a_missing_nested_include_names_the_including_file_and_line_and_its_page(root: Path) -> None:
    page = root / "docs" / "page.md"
    text = '---\ntitle: Page\n---\n# Page\n\n--8<-- "parts/nested.md"\n'
    body = text.split("---\n", 2)[2]  # what MkDocs hands the hook: the page without front matter
    assert pymdownx_fails(body, root)
    (problem,) = include_problems(body, page, [str(root)], first_line=4)
    assert problem.where == Location(root / "parts" / "nested.md", 2)
    assert problem.what == "--8<-- includes 'parts/gone.md', which is not there"
    assert problem.details[1] == f"included from {Location(page, 6)}"


def test_a_missing_file_in_a_block_fails_at_its_line(root: Path) -> None:
    page = root / "docs" / "page.md"
    text = "--8<--\nparts/here.md\nparts/gone.md\n--8<--\n"
    assert pymdownx_fails(text, root)
    assert [p.where for p in include_problems(text, page, [str(root)])] == [Location(page, 3)]


def pymdownx_keeps(text: str, root: Path) -> list[str]:
    """The lines pymdownx.snippets itself hands on to the rest of Markdown."""
    md = markdown.Markdown(
        extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": {"base_path": [str(root)]}}
    )
    return md.preprocessors["snippet"].run(text.split("\n"))


@pytest.mark.parametrize(
    "line",
    [
        "Mark a section with `--8<-- [start:name]` in the program.",
        "   --8<-- [end:name] closes it",
        "Both: `--8<-- [start:a]` and `;--8<-- [end:a]` on one line.",  # only the first marker counts
    ],
    ids=["inline-code", "list-item", "first-marker"],
)
def test_a_page_line_pymdownx_would_drop_fails_at_its_line(root: Path, line: str) -> None:
    page = root / "docs" / "page.md"
    text = f"# Page\n\n{line}\n"
    assert line not in pymdownx_keeps(text, root)
    (problem,) = include_problems(text, page, [str(root)])
    assert problem.where == Location(page, 3)
    assert "drops this line" in problem.what
    assert ";--8<--" in problem.details[0]


def test_an_escaped_section_marker_is_kept_and_a_programs_markers_are_no_problem(root: Path) -> None:
    (root / "parts" / "prog.py").write_text("# --8<-- [start:main]\nprint(1)\n# --8<-- [end:main]\n")
    page = root / "docs" / "page.md"
    text = 'Marked with `;--8<-- [start:name]`.\n\n```python\n--8<-- "parts/prog.py"\n```\n'
    assert "Marked with `--8<-- [start:name]`." in pymdownx_keeps(text, root)
    assert include_problems(text, page, [str(root)]) == []


def test_expanded_pages_give_the_generator_the_same_html(root: Path) -> None:
    """The render stage hands the generator pages whose include lines pymdownx.snippets has
    already replaced (render/includes.py, expanded): the page's HTML is the same bytes, and
    a page whose result still shows a marker is left for the generator's own pass."""
    from verified_docs.render.includes import expanded, snippets_pass

    (root / "parts" / "prog.py").write_text("# --8<-- [start:main]\nprint(1)\n# --8<-- [end:main]\n\n")
    options = {"base_path": [str(root)], "check_paths": True, "dedent_subsections": True}
    extensions = ["pymdownx.superfences", "pymdownx.highlight", "pymdownx.snippets", "pymdownx.tabbed"]
    page = (
        '# Page\n\n=== "Python"\n\n    ```python\n    --8<-- "parts/prog.py"\n    ```\n\n'
        '```python\n--8<-- "parts/prog.py:main"\n```\n\n--8<-- "parts/here.md"\n'
    )

    def html(text: str) -> str:
        md = markdown.Markdown(extensions=extensions, extension_configs={"pymdownx.snippets": options})
        return md.convert(text)

    once = expanded(page, options)
    assert "8<-" not in once and "print(1)" in once and "Here." in once
    assert html(once) == html(page)
    escaped = "Shown: `;--8<-- [start:name]`.\n"
    assert expanded(escaped, options) == escaped  # the generator's pass takes the ';' off
    assert snippets_pass(escaped, options) == "Shown: `--8<-- [start:name]`.\n"


def test_a_section_the_file_lacks_fails_at_the_pages_line_not_in_a_traceback(root: Path) -> None:
    """include_problems sees files, not sections: pymdownx.snippets refuses a missing section when
    the render stage expands the page (render/includes.py), which names the page and line."""
    from verified_docs.errors import SourceError
    from verified_docs.render.includes import expanded

    (root / "parts" / "prog.py").write_text("# --8<-- [start:main]\nprint(1)\n# --8<-- [end:main]\n")
    page = root / "docs" / "page.md"
    text = '# Page\n\n```python\n--8<-- "parts/prog.py:nosuch"\n```\n'
    assert include_problems(text, page, [str(root)]) == []
    with pytest.raises(SourceError) as caught:
        expanded(text, {"base_path": [str(root)], "check_paths": True}, page)
    (problem,) = caught.value.problems
    assert problem.where == Location(page, 4)
    assert "nosuch" in problem.what and "[start:NAME]" in problem.details[0]
