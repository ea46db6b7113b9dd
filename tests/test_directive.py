from pathlib import Path

import pytest

from verified_docs.directive import find_directives
from verified_docs.errors import SourceError

PAGE = Path("docs/page.md")


def test_directive_is_parsed_with_its_line() -> None:
    md = 'Intro\n\n    <!-- verified-example scenario="g/s" program="main" section="tool" output="no" -->\n'
    (d,) = find_directives(md, PAGE)
    assert (d.where.line, d.indent, d.scenario, d.program, d.section, d.output) == (3, "    ", "g/s", "main", "tool", "no")


def test_directive_inside_a_code_fence_is_left_alone() -> None:
    md = '```\n<!-- verified-example scenario="g/s" program="main" section="tool" -->\n```\n'
    assert find_directives(md, PAGE) == []


def test_unknown_attribute_lists_the_valid_ones() -> None:
    md = 'x\n<!-- verified-example scenario="g/s" program="main" section="t" colour="red" -->\n'
    with pytest.raises(SourceError) as e:
        find_directives(md, PAGE)
    assert str(e.value) == ("docs/page.md:2: unknown attribute 'colour'\n"
                            "    valid attributes: scenario, program, section, output, run")


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
