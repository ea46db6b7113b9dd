from pathlib import Path

import pytest

from verified_docs.errors import Location, SourceError
from verified_docs.scenario.sections import get_section, parse_sections

GOOD = """import os
# --8<-- [start:outer]
def f():
    # --8<-- [start:inner]
    return 1
    # --8<-- [end:inner]
# --8<-- [end:outer]
"""


def test_sections_are_dedented_and_drop_nested_markers(tmp_path: Path) -> None:
    p = tmp_path / "a.py"
    p.write_text(GOOD)
    sections = parse_sections(p)
    assert sections["outer"].text == "def f():\n    return 1"
    assert sections["inner"].text == "return 1"
    assert (sections["inner"].start_line, sections["inner"].end_line) == (4, 6)


def test_unclosed_section_names_its_start_line(tmp_path: Path) -> None:
    p = tmp_path / "a.py"
    p.write_text("x = 1\n# --8<-- [start:tail]\ny = 2\n")
    with pytest.raises(SourceError) as e:
        parse_sections(p)
    assert str(e.value) == f"{p}:2: section 'tail' is never closed (expected '--8<-- [end:tail]')"


def test_duplicated_section_names_both_lines(tmp_path: Path) -> None:
    p = tmp_path / "a.py"
    p.write_text("# --8<-- [start:a]\n# --8<-- [end:a]\n# --8<-- [start:a]\n# --8<-- [end:a]\n")
    with pytest.raises(SourceError) as e:
        parse_sections(p)
    assert f"{p}:3: section 'a' started again (first started at line 1)" in str(e.value)


def test_end_without_start(tmp_path: Path) -> None:
    p = tmp_path / "a.py"
    p.write_text("x = 1\n# --8<-- [end:a]\n")
    with pytest.raises(SourceError, match=r"a\.py:2: section 'a' ends here but was never started"):
        parse_sections(p)


def test_unknown_section_lists_valid_names_at_the_referring_line(tmp_path: Path) -> None:
    p = tmp_path / "a.py"
    p.write_text(GOOD)
    page = Location(tmp_path / "page.md", 7)
    with pytest.raises(SourceError) as e:
        get_section(p, "nope", referenced_from=page)
    assert str(e.value).startswith(f"{tmp_path / 'page.md'}:7: unknown section 'nope'")
    assert "valid sections: inner, outer" in str(e.value)


def test_duplicate_section_is_reported_once(tmp_path: Path) -> None:
    p = tmp_path / "a.py"
    p.write_text("# --8<-- [start:a]\nx\n# --8<-- [end:a]\n# --8<-- [start:a]\ny\n# --8<-- [end:a]\n")
    with pytest.raises(SourceError) as e:
        parse_sections(p)
    assert len(e.value.problems) == 1


def test_marker_inside_a_string_literal_is_an_error(tmp_path: Path) -> None:
    p = tmp_path / "a.py"
    p.write_text('# --8<-- [start:a]\nprint("--8<-- [end:a]")\n# --8<-- [end:a]\n')
    with pytest.raises(SourceError) as e:
        parse_sections(p)
    assert str(e.value) == (
        f"{p}:2: section marker '[end:a]' is not in a comment of its own (inside a string "
        "literal?); put it on its own line after the comment sign"
    )


def test_the_whole_program_drops_markers_and_knows_where_each_section_is_shown(tmp_path: Path) -> None:
    from verified_docs.scenario.sections import program_view

    path = tmp_path / "p.py"
    path.write_text(
        "import os\n# --8<-- [start:a]\nx = 1\n# --8<-- [start:b]\ny = 2\n# --8<-- [end:b]\n"
        "# --8<-- [end:a]\nprint(x, y)\n# --8<-- [start:empty]\n# --8<-- [end:empty]\n"
    )
    view = program_view(path)
    # What pymdownx.snippets includes for the whole file: every line but the markers.
    assert view.text == "import os\nx = 1\ny = 2\nprint(x, y)"
    assert view.file_lines == (1, 3, 5, 8)
    sections = parse_sections(path)
    assert view.shown_range(sections["a"]) == (2, 3)
    assert view.shown_range(sections["b"]) == (3, 3)
    assert view.shown_range(sections["empty"]) == (5, 5)


def test_the_whole_program_is_what_pymdownx_includes(tmp_path: Path) -> None:
    import markdown

    from verified_docs.scenario.sections import program_view

    path = tmp_path / "p.py"
    path.write_text("a = 1\n    # --8<-- [start:s]\nb = 2\n    # --8<-- [end:s]\nc = 3\n")
    md = markdown.Markdown(
        extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": {"base_path": [str(tmp_path)]}}
    )
    included = md.preprocessors["snippet"].run([f'--8<-- "{path.name}"'])
    assert "\n".join(included).rstrip("\n") == program_view(path).text


@pytest.mark.parametrize(
    ("line", "what"),
    [
        ("# ;--8<-- [start:kept]", "an escaped section marker: pymdownx.snippets drops its first ';'"),
        (';--8<-- "other.py"', "an escaped --8<-- line: pymdownx.snippets drops its first ';'"),
        ('--8<-- "other.py"', "a --8<-- include line: pymdownx.snippets would put another file here"),
        ("--8<--", "a --8<-- include line: pymdownx.snippets would put another file here"),
    ],
)
def test_a_line_the_include_would_rewrite_fails_at_its_line(tmp_path: Path, line: str, what: str) -> None:
    """What pymdownx.snippets does with each line, when a page includes the file, is what the
    page shows and the copy button copies: so no line may come out other than it ran."""
    import markdown

    from verified_docs.scenario.sections import program_view

    path = tmp_path / "p.py"
    path.write_text(f"a = 1\n# --8<-- [start:s]\nb = 2\n# --8<-- [end:s]\n{line}\n")
    (tmp_path / "other.py").write_text("other = 1\n")
    md = markdown.Markdown(
        extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": {"base_path": [str(tmp_path)]}}
    )
    included = md.preprocessors["snippet"].run([f'--8<-- "{path.name}"'])
    assert line not in included  # the include does rewrite it
    for read in (program_view, parse_sections):
        with pytest.raises(SourceError) as e:
            read(path)
        [problem] = e.value.problems
        assert problem.where == Location(path, 5) and problem.what.startswith(what)
        assert "the copy button would copy them" in problem.details[0]
