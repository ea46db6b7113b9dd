from pathlib import Path

import pytest

from verified_docs.errors import SourceError
from verified_docs.render.directive import find_directives

PAGE = Path("docs/page.md")


def test_directive_is_parsed_with_its_line() -> None:
    md = 'Intro\n\n    <!-- verified-example scenario="g/s" program="main" section="tool" output="no" -->\n'
    (d,) = find_directives(md, PAGE)
    assert (d.where.line, d.indent, d.scenario, d.program, d.section, d.output) == (
        3,
        "    ",
        "g/s",
        "main",
        "tool",
        "no",
    )


def test_directive_inside_a_code_fence_is_left_alone() -> None:
    md = '```\n<!-- verified-example scenario="g/s" program="main" section="tool" -->\n```\n'
    assert find_directives(md, PAGE) == []


def test_unknown_attribute_lists_the_valid_ones() -> None:
    md = 'x\n<!-- verified-example scenario="g/s" program="main" section="t" colour="red" -->\n'
    with pytest.raises(SourceError) as e:
        find_directives(md, PAGE)
    assert str(e.value) == (
        "docs/page.md:2: unknown attribute 'colour'\n    valid attributes: scenario, program, section, output, run"
    )


def test_missing_attribute_and_bad_output() -> None:
    with pytest.raises(SourceError, match=r"page\.md:1: directive is missing section"):
        find_directives('<!-- verified-example scenario="g/s" program="main" -->', PAGE)
    with pytest.raises(SourceError, match=r"output: expected one of yes, no, only, got 'maybe'"):
        find_directives('<!-- verified-example scenario="g/s" program="m" section="t" output="maybe" -->', PAGE)


def test_directive_not_on_a_line_of_its_own_is_an_error() -> None:
    with pytest.raises(SourceError, match=r"page\.md:1: malformed verified directive"):
        find_directives('See <!-- verified-example scenario="g/s" program="m" section="t" --> here', PAGE)


def test_misspelt_directive_kind_is_an_error_not_a_silent_gap() -> None:
    with pytest.raises(SourceError) as e:
        find_directives('x\n<!-- verified-exmaple scenario="g/s" program="m" section="t" -->\n', PAGE)
    assert str(e.value).startswith("docs/page.md:2: malformed verified directive")
    assert "valid kinds: verified-example, verified-evidence, verified-contract, verified-matrix" in str(e.value)


SWALLOWING = """# Page

```text
output that was meant to be closed

<!-- verified-example scenario="g/s" program="main" section="tool" -->

<!-- verified-evidence scenario="g/s" -->
"""


def test_an_unclosed_fence_fails_at_its_opening_line_naming_what_it_swallows() -> None:
    with pytest.raises(SourceError) as e:
        find_directives(SWALLOWING, PAGE)
    assert str(e.value) == (
        "docs/page.md:3: code fence '```text' is never closed: it swallows everything after it\n"
        "    close it with a line holding ```; it hides the verified directive(s) at line(s) 6, 8"
    )


def test_lines_count_from_the_top_of_the_file() -> None:
    with pytest.raises(SourceError, match=r"^docs/page\.md:7: code fence '```text' is never closed"):
        find_directives(SWALLOWING, PAGE, first_line=5)
    source = "---\ntitle: T\n---\n\n" + SWALLOWING
    from verified_docs.render.directive import body_start

    assert body_start(source, SWALLOWING) == 5
    assert body_start(SWALLOWING, SWALLOWING) == 1


def test_fences_close_as_commonmark_closes_them() -> None:
    directive = '<!-- verified-evidence scenario="g/s" -->'
    # An info string cannot close a fence, a longer run can, and "```a```" is inline code.
    assert find_directives(f"```\n```python\n{directive}\n```\n{directive}\n", PAGE)[0].where.line == 5
    assert find_directives(f"```text\nx\n`````\n{directive}\n", PAGE)[0].where.line == 4
    assert find_directives(f"```a``` is inline\n{directive}\n", PAGE)[0].where.line == 2
    with pytest.raises(SourceError, match=r"page\.md:1: code fence '````' is never closed"):
        find_directives(f"````\n```\n{directive}\n", PAGE)
