"""Claims: a sentence tied to evidence fails the build at its page:line when the evidence is gone,
says otherwise, or the sentence lost the words it backed; a checked claim becomes a link."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import replace
from importlib.metadata import version
from pathlib import Path

import pytest

from conftest import ROOT, SNIPPETS, build_site
from verified_docs import cli
from verified_docs import ledger as ledger_mod
from verified_docs.errors import SourceError
from verified_docs.render import claim_record, claims
from verified_docs.render.anchors import source_anchor
from verified_docs.render.claim_context import CONTRADICTED, Context, scan_site
from verified_docs.render.claim_parse import parse_claims
from verified_docs.render.claim_scenario import read_value
from verified_docs.render.claim_source import installed_toolnexus, render_sources
from verified_docs.render.directive import find_directives
from verified_docs.render.factual import strip_advice
from verified_docs.render.pages import confirm_claims
from verified_docs.render.release_matrix import Matrix
from verified_docs.scenario.load import load_scenario
from verified_docs.verify.scenarios import verify_scenario

NAME = "suspension/several-suspensions"
BALANCED = f'<!-- claim evidence="{NAME}#halt.transcript_balanced" value="false" quote="is unbalanced" -->'
# A sentence resting on source alone says why no run can show it (render/claim_why.py).
WHY = 'why="no scripted run reaches this line"'


@pytest.fixture(scope="module")
def verified(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ledger_mod.Ledger]:
    """A copy of the several-suspensions scenario, verified for real, and its ledger."""
    root = tmp_path_factory.mktemp("claims")
    shutil.copytree(SNIPPETS / NAME, root / "snippets" / NAME)
    scenario = load_scenario(root / "snippets" / NAME, root / "snippets")
    verdicts = verify_scenario(scenario)
    assert all(v.passed for v in verdicts), "\n".join(v.report() for v in verdicts)
    return root, ledger_mod.build(verdicts, root)


@pytest.fixture
def project(verified: tuple[Path, ledger_mod.Ledger], tmp_path: Path) -> Path:
    """A project per test (the verified scenario, pages to point at) that the test may edit."""
    root = tmp_path / "project"
    shutil.copytree(verified[0], root)
    pages = {
        "suspension/evidence.md": f'# Evidence\n\n<!-- verified-evidence scenario="{NAME}" -->\n',
        "reference/availability.md": "# Availability\n\n<!-- verified-matrix -->\n",
        "reference/source-lines.md": "# Sources\n\n<!-- verified-sources -->\n",
    }
    for rel, text in pages.items():
        (root / "docs" / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / "docs" / rel).write_text(text)
    return root


MATRIX_RELEASES = ("0.18.1", "0.19.0", "0.20.0", version("toolnexus"))


def context(root: Path, ledger: ledger_mod.Ledger) -> Context:
    scenario = load_scenario(root / "snippets" / NAME, root / "snippets")
    # As measured: 0.18.1 lacks ProviderError, so the scenario passes from 0.19.0 on.
    matrix = Matrix(MATRIX_RELEASES, {NAME: dict(zip(MATRIX_RELEASES, (False, True, True, True), strict=True))})
    package, installed = installed_toolnexus()
    return Context({NAME: scenario}, ledger, root, matrix, scan_site(root / "docs"), package, installed)


def render(project: Path, ledger: ledger_mod.Ledger, body: str, page: str = "suspension/several-suspensions.md") -> str:
    """Render ``body`` as the page ``page`` (which is written first, so the site sees it)."""
    path = project / "docs" / page
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body)
    return claims.render_claims(body, path, page, context(project, ledger))


def failure(
    project: Path, ledger: ledger_mod.Ledger, body: str, page: str = "suspension/several-suspensions.md"
) -> str:
    with pytest.raises(SourceError) as e:
        render(project, ledger, body, page)
    return str(e.value)


def page_path(project: Path, page: str = "suspension/several-suspensions.md") -> Path:
    return project / "docs" / page


SENTENCE = f"Only `call_1` has a tool message:\nthe saved transcript is unbalanced.{BALANCED}\n"


def test_a_checked_claim_becomes_a_link_to_its_run_on_the_same_page(verified, project: Path) -> None:
    body = f'# Several\n\n{SENTENCE}\n<!-- verified-evidence scenario="{NAME}" -->\n'
    out = render(project, verified[1], body)
    assert out != body and "<!-- claim" not in out
    assert out.splitlines()[3] == (
        'the saved transcript is unbalanced.<sup class="vd-claim">[✓](#evidence-suspension-several-suspensions--halt '
        '"Checked in this build: suspension/several-suspensions, run halt: transcript_balanced is false")'
        '{ aria-label="Evidence checked in this build: suspension/several-suspensions, run halt, transcript_balanced" }'
        "</sup>"
    )
    assert out.splitlines()[:3] == body.splitlines()[:3]  # the rest of the page is as it was
    assert len(out.splitlines()) == len(body.splitlines())


def test_links_go_to_the_page_that_shows_the_evidence_the_matrix_row_and_the_source_list(
    verified, project: Path
) -> None:
    body = (
        f"Unbalanced.{BALANCED.replace('is unbalanced', 'Unbalanced')}\n"
        f'Passes since 0.19.0.<!-- claim evidence="matrix:{NAME}" since="0.19.0" quote="since 0.19.0" -->\n'
        'It raises ProviderError.<!-- claim evidence="source:toolnexus/client.py" '
        f'contains="class ProviderError(Exception):" quote="raises ProviderError" {WHY} -->\n'
    )
    out = render(project, verified[1], body, page="guide/other.md").splitlines()
    assert "[✓](../suspension/evidence.md#evidence-suspension-several-suspensions--halt " in out[0]
    assert "[✓](../reference/availability.md#since-suspension-several-suspensions " in out[1]
    source = (installed_toolnexus()[0] / "client.py").read_text().splitlines()
    line = next(i for i, text in enumerate(source, start=1) if "class ProviderError(Exception):" in text)
    anchor = source_anchor("toolnexus/client.py", "class ProviderError(Exception):")
    assert f"[client.py:{line}](../reference/source-lines.md#{anchor} " in out[2]


def test_claim_whose_evidence_was_removed_from_the_scenario_points_at_nothing(verified, project: Path) -> None:
    yaml = project / "snippets" / NAME / "scenario.yaml"
    text = yaml.read_text()
    assert text.count("      transcript_balanced: false\n") == 1
    yaml.write_text(text.replace("      transcript_balanced: false\n", ""))
    assert failure(project, verified[1], SENTENCE) == (
        f"{page_path(project)}:2: claim points at nothing: run 'halt' has no evidence key 'transcript_balanced'\n"
        "    valid keys of run 'halt': exit_code, model_requests, tool_results_shown, tool_runs, tool_answers, "
        "wait_for_calls, sequence, run_statuses, stdout_contains"
    )


def test_claim_checked_against_an_expect_edited_after_verification(verified, project: Path) -> None:
    # Editing scenario.yaml to agree with the page does not make it evidence: it was not verified.
    body = (
        'The halted transcript is balanced.<!-- claim evidence="suspension/several-suspensions#halt.'
        'transcript_balanced" value="true" quote="transcript is balanced" -->\n'
    )
    yaml = project / "snippets" / NAME / "scenario.yaml"
    yaml.write_text(yaml.read_text().replace("      transcript_balanced: false\n", "      transcript_balanced: true\n"))
    assert failure(project, verified[1], body) == (
        f"{page_path(project)}:1: claim: suspension/several-suspensions#halt.transcript_balanced: "
        f"{NAME}/scenario.yaml changed after it was verified, so its evidence was not checked; verify it again"
    )


def test_claim_edited_to_say_the_opposite_of_its_evidence(verified, project: Path) -> None:
    # The sentence and the claim both say "balanced": the quote holds, the evidence does not.
    body = (
        'The halted transcript is balanced.<!-- claim evidence="suspension/several-suspensions#halt.'
        'transcript_balanced" value="true" quote="transcript is balanced" -->\n'
    )
    yaml = project / "snippets" / NAME / "scenario.yaml"
    line = yaml.read_text().splitlines().index("      transcript_balanced: false") + 1
    assert failure(project, verified[1], body) == (
        f"{page_path(project)}:1: claim: suspension/several-suspensions#halt.transcript_balanced: the page says true; "
        "the evidence checked in this build says false\n"
        f"    the page's value read as YAML: true\n"
        f"    stated at {yaml}:{line}"
    )


def test_claim_whose_words_left_its_sentence(verified, project: Path) -> None:
    edited = SENTENCE.replace("the saved transcript is unbalanced.", "the saved transcript can be sent back.")
    assert failure(project, verified[1], edited) == (
        f'{page_path(project)}:2: claim\'s words "is unbalanced" are not in its sentence\n'
        '    its sentence: "Only call_1 has a tool message: the saved transcript can be sent back."'
    )


def test_words_of_an_earlier_sentence_do_not_count(verified, project: Path) -> None:
    # Each claim's sentence starts after the previous claim: one quote cannot serve twice.
    body = f"It is unbalanced.{BALANCED} And again.{BALANCED}\n"
    assert failure(project, verified[1], body).startswith(
        f'{page_path(project)}:1: claim\'s words "is unbalanced" are not in its sentence\n'
        '    its sentence: "And again."'
    )


def test_source_claim_whose_text_is_not_in_the_installed_package(verified, project: Path) -> None:
    body = (
        '`run` retries a refused transcript.<!-- claim evidence="source:toolnexus/client.py" '
        f'contains="def retry_refused_transcript(" quote="retries a refused transcript" {WHY} -->\n'
    )
    assert failure(project, verified[1], body) == (
        f'{page_path(project)}:1: claim: source:toolnexus/client.py: the page cites "def retry_refused_transcript("; '
        f"the installed toolnexus {version('toolnexus')} has no such text in toolnexus/client.py"
    )


def test_source_claim_naming_a_file_the_package_does_not_have(verified, project: Path) -> None:
    body = f'It resumes.<!-- claim evidence="source:toolnexus/resume.py" contains="def resume(" quote="It resumes" {WHY} -->\n'
    package = installed_toolnexus()[0]
    assert failure(project, verified[1], body) == (
        f'{page_path(project)}:1: claim: source:toolnexus/resume.py: the page cites "def resume("; '
        f"the installed toolnexus {version('toolnexus')} has no toolnexus/resume.py (looked in {package})"
    )


def with_rules(project: Path) -> None:
    """The project's rules file as this repository's, and a page showing the contract."""
    (project / "rules").mkdir(exist_ok=True)
    shutil.copy(ROOT / "rules" / "spec-10.yaml", project / "rules" / "spec-10.yaml")
    (project / "docs" / "reference" / "contract.md").write_text("# Contract\n\n<!-- verified-contract -->\n")


RULE_CLAIM = (
    'The SPEC says the loop looks at ok alone.<!-- claim evidence="rule:S4" contains="{}" quote="ok alone" -->\n'
)


def test_rule_claim_that_holds_links_to_the_rule_on_the_contract_page(verified, project: Path) -> None:
    with_rules(project)
    out = render(project, verified[1], RULE_CLAIM.format("branches only on `ok`"), page="guide/other.md")
    assert "<!-- claim" not in out
    assert '[✓](../reference/contract.md#s4 "S4 The Answer&#39;s shape: SPEC.md at d4d4255, §10, Answer' in out
    assert "Contract rule S4: The Answer&#39;s shape" in out
    # Without contains, the rule being there is what backs the sentence.
    bare = 'The SPEC has an Answer rule.<!-- claim evidence="rule:S4" quote="an Answer rule" -->\n'
    assert "../reference/contract.md#s4" in render(project, verified[1], bare, page="guide/other.md")
    # A text of the note is named as this site's words, not upstream's.
    note = RULE_CLAIM.format("the SPEC types it boolean")
    assert "this site&#39;s note on the rule" in render(project, verified[1], note, page="guide/other.md")


def test_rule_claim_whose_rule_is_gone_points_at_nothing(verified, project: Path) -> None:
    with_rules(project)
    body = RULE_CLAIM.format("branches only on `ok`").replace("rule:S4", "rule:S99")
    message = failure(project, verified[1], body)
    assert message.startswith(
        f"{page_path(project)}:1: claim points at nothing: rules/spec-10.yaml has no rule 'S99'\n"
    )
    assert "valid rules: S1, S2, S3, S4" in message


def test_rule_claim_whose_text_the_rule_does_not_hold_is_contradicted(verified, project: Path) -> None:
    with_rules(project)
    with pytest.raises(SourceError) as e:
        render(project, verified[1], RULE_CLAIM.format("the loop reads reason"))
    assert str(e.value).startswith(
        f'{page_path(project)}:1: claim: rule:S4: the page cites "the loop reads reason"; '
        "no quote of the rule's sources and not its note holds it\n"
    )
    assert e.value.problems[0].title == CONTRADICTED


def test_matrix_claim_with_a_wrong_since(verified, project: Path) -> None:
    body = f'Works since 0.18.1.<!-- claim evidence="matrix:{NAME}" since="0.18.1" quote="since 0.18.1" -->\n'
    assert failure(project, verified[1], body) == (
        f"{page_path(project)}:1: claim: matrix:{NAME}: the page says since 0.18.1; the release matrix measured 0.19.0\n"
        f"    releases measured: {', '.join(MATRIX_RELEASES)}"
    )


def test_only_a_claim_its_evidence_contradicts_is_titled_claim_contradicted(verified, project: Path) -> None:
    # Its annotation says what went wrong: the sentence, not the syntax, needs a second look.
    said_otherwise = {
        "value": f'Balanced.<!-- claim evidence="{NAME}#halt.transcript_balanced" value="true" quote="Balanced" -->',
        "contains": f'A 500.<!-- claim evidence="{NAME}#halt.stdout_contains" contains="HTTP 500" quote="A 500" -->',
        "since": f'Since 0.18.1.<!-- claim evidence="matrix:{NAME}" since="0.18.1" quote="Since 0.18.1" -->',
        "source": f'It retries.<!-- claim evidence="source:toolnexus/client.py" contains="def nope(" quote="retries" {WHY} -->',
    }
    not_so = {
        "quote gone": SENTENCE.replace("is unbalanced.", "can be sent back."),
        "no such key": f'Ran.<!-- claim evidence="{NAME}#halt.tool_runs.rollback" value="0" quote="Ran" -->',
        "no such file": f'It resumes.<!-- claim evidence="source:toolnexus/resume.py" contains="x" quote="resumes" {WHY} -->',
        "malformed": f'Ran.<!-- claim evidence="{NAME}#halt.tool_runs" quote="Ran" -->',
    }
    for case, titled in [(c, CONTRADICTED) for c in said_otherwise.values()] + [(c, "") for c in not_so.values()]:
        with pytest.raises(SourceError) as e:
            render(project, verified[1], case + "\n")
        assert [p.title for p in e.value.problems] == [titled], case


@pytest.mark.parametrize(
    ("claim", "what"),
    [
        (
            '<!-- claim evidence="x#y.z" value="1" quote="q" colour="red" -->',
            "malformed claim: unknown attribute 'colour'\n    valid attributes: evidence, value, contains, since, quote, why",
        ),
        (
            '<!-- claim evidence=x#y.z value="1" quote="q" -->',
            'malformed claim: cannot read its attributes from \'evidence=x#y.z value="1" quote="q"\' '
            '(they look like name="value")',
        ),
        (
            '<!-- claim evidence="x#y.z" value="1" value="2" quote="q" -->',
            "malformed claim: attribute 'value' is given twice",
        ),
        (
            '<!-- claim evidence="x#y.z" value="1"',
            "malformed claim: it must end with --> on the same line or, written over several lines, "
            "with a line --> of its own before the paragraph ends",
        ),
        (
            '<!-- claim evidence="x#y.z" value="1" -->',
            'malformed claim: it has no quote="..." (the words of the sentence it backs)',
        ),
        (
            '<!-- claim evidence="x#y.z" quote="q" -->',
            "malformed claim: a scenario claim takes value or contains, got none",
        ),
        (
            '<!-- claim evidence="matrix:x" value="0.19.0" quote="q" -->',
            "malformed claim: a matrix claim takes since, got value",
        ),
        (
            '<!-- claim evidence="x" value="1" quote="q" -->',
            "malformed claim: evidence 'x' is none of <scenario>#<run>.<key>, matrix:<scenario>, source:toolnexus/<file>.py, rule:<id>",
        ),
        (
            '<!-- claim evidence="rule:S4" since="0.19.0" quote="q" -->',
            "malformed claim: a rule claim takes contains, got since",
        ),
        (
            '<!-- claim evidence="source:../secrets.py" contains="x" quote="q" -->',
            "malformed claim: 'source:../secrets.py' names no file of the package (expected source:toolnexus/<file>.py)",
        ),
    ],
)
def test_malformed_claim_is_an_error_at_its_line(claim: str, what: str) -> None:
    with pytest.raises(SourceError) as e:
        parse_claims(f"# Page\n\nA sentence q.{claim}\n", Path("docs/page.md"))
    assert str(e.value) == f"docs/page.md:3: {what}"


# A block claim: attributes on its first line, more below it as YAML, then a line -->.
BLOCK = f'<!-- claim evidence="{NAME}#halt.transcript_balanced" quote="is unbalanced"\nvalue: false\n-->'


def test_a_block_claim_reads_as_the_same_claim_written_on_one_line() -> None:
    page = Path("docs/page.md")
    (one,) = parse_claims(f"Intro:\nit is unbalanced.{BALANCED}\n\nNext.\n", page)
    (block,) = parse_claims(f"Intro:\nit is unbalanced.{BLOCK}\n\nNext.\n", page)
    assert (block.where, block.evidence, block.quote, block.sentence, block.contains, block.since) == (
        one.where,
        one.evidence,
        one.quote,
        one.sentence,
        one.contains,
        one.since,
    )
    assert read_value(block.value or "") is read_value(one.value or "") is False
    assert (one.lines, block.lines) == (1, 3)
    # A text that on one line needs quotes inside the attribute's quotes needs one pair, or none.
    nested = '<!-- claim evidence="x#r.k" quote="q" value="\'said: no, twice\'" -->'
    for body in ('value: "said: no, twice"', "value: 'said: no, twice'"):
        (a,) = parse_claims(f"S q.{nested}\n", page)
        (b,) = parse_claims(f'S q.<!-- claim evidence="x#r.k" quote="q"\n{body}\n-->\n', page)
        assert read_value(a.value or "") == read_value(b.value or "") == "said: no, twice"
    (both,) = parse_claims('S q.<!-- claim evidence="x#r.k" quote="q"\nvalue: it\'s "quoted"\n-->\n', page)
    assert read_value(both.value or "") == 'it\'s "quoted"'
    # Indented as a list item's text, with a mapping as its value.
    item = '- S q.<!-- claim evidence="x#r.k" quote="q"\n  value:\n    id: a\n    ok: true\n  -->\n'
    (nested_value,) = parse_claims(item, page)
    assert read_value(nested_value.value or "") == {"id": "a", "ok": True} and nested_value.lines == 5


@pytest.mark.parametrize(
    ("body", "line", "what"),
    [
        (
            'S q.<!-- claim evidence="x#r.k" value="1" quote="q"\ncontains: x\nvalue: 2\n-->\n',
            3,
            "malformed claim: attribute 'value' is given twice: on the claim's first line and here",
        ),
        (
            'S q.<!-- claim evidence="x#r.k" quote="q"\ncontains: x\nvalue: [1, 2\n-->\n',
            3,
            "malformed claim: its YAML lines cannot be read: expected ',' or ']', but got '<stream end>'",
        ),
        (
            'S q.<!-- claim evidence="x#r.k" quote="q"\nvalue: 1\ncolour: red\n-->\n',
            3,
            "malformed claim: unknown attribute 'colour'\n    valid attributes: evidence, value, contains, since, quote, why",
        ),
        (
            'S q.<!-- claim evidence="matrix:x" quote="q"\nsince: 0.20\n-->\n',
            2,
            "malformed claim: attribute 'since' holds no text: 0.2; put it in quotes",
        ),
        (
            'S q.<!-- claim evidence="x#r.k" quote="q"\nvalue: 1 -->\n',
            2,
            "malformed claim: a claim written over several lines ends with --> on a line of its own",
        ),
        (
            'S q.<!-- claim evidence="x#r.k" quote="q"\nvalue: 1\n-->\nThe paragraph goes on.\n',
            4,
            "malformed claim: a claim written over several lines ends its paragraph: leave the line after its --> blank",
        ),
        (
            'S q.<!-- claim evidence="x#r.k" quote="q"\nvalue: 1\n\n-->\n',
            1,
            "malformed claim: it must end with --> on the same line or, written over several lines, "
            "with a line --> of its own before the paragraph ends",
        ),
    ],
    ids=["given-twice", "bad-yaml", "unknown", "not-a-text", "closed-beside-text", "paragraph-goes-on", "unclosed"],
)
def test_a_malformed_block_claim_is_an_error_at_the_line_at_fault(body: str, line: int, what: str) -> None:
    with pytest.raises(SourceError) as e:
        parse_claims(f"# Page\n\n{body}", Path("docs/page.md"))
    assert str(e.value) == f"docs/page.md:{line + 2}: {what}"


def test_a_block_claim_renders_as_its_one_line_form_with_its_other_lines_left_empty(verified, project: Path) -> None:
    body = "# Several\n\nOnly `call_1` has a tool message:\nthe saved transcript is unbalanced.{}\n\nNext.\n"
    one, block = body.format(BALANCED), body.format(BLOCK)
    out_one, out_block = render(project, verified[1], one), render(project, verified[1], block)
    assert "<!-- claim" not in out_block and "value: false" not in out_block
    assert out_block.splitlines() == out_one.splitlines()[:4] + ["", ""] + out_one.splitlines()[4:]
    assert len(out_block.splitlines()) == len(block.splitlines())  # the lines below keep their numbers


def test_every_malformed_claim_of_a_page_is_reported_at_once() -> None:
    md = 'a<!-- claim quote="a" -->\n\nb<!-- claim evidence="x#y.z" value="1" quote="b" hue="1" -->\n'
    with pytest.raises(SourceError) as e:
        parse_claims(md, Path("docs/page.md"))
    assert [str(p.where) for p in e.value.problems] == ["docs/page.md:1", "docs/page.md:3"]


def test_claims_in_code_are_text_and_plain_comments_are_left_alone() -> None:
    md = (
        "```\nx<!-- claim nonsense -->\n```\n"
        'Write `<!-- claim evidence="..." -->` after the sentence.\n'
        "<!-- claimed by nobody: not a claim -->\n"
    )
    assert parse_claims(md, Path("docs/page.md")) == []


def test_a_code_span_across_two_lines_does_not_hide_a_claim_after_it() -> None:
    # Markdown lets `...` open on one line and close on the next; the claim after it is text.
    md = f"The model is shown `declined: Delete branch\nfeature-x?` as the result, and `x` too.{BALANCED}\n"
    (claim,) = parse_claims(md, Path("docs/page.md"))
    assert (claim.where.line, claim.quote) == (2, "is unbalanced")
    # A claim inside such a span is still code.
    inside = f"Write `a claim\nlike{BALANCED}` after it.\n"
    assert parse_claims(inside, Path("docs/page.md")) == []


def test_a_claim_comment_in_a_built_page_fails_the_guard(tmp_path: Path) -> None:
    from verified_docs.site.guard import unrendered_claims

    docs, site = tmp_path / "docs", tmp_path / "site"
    docs.mkdir()
    (docs / "page.md").write_text(f"# Page\n\nUnbalanced.{BALANCED}\n")
    (site / "page").mkdir(parents=True)
    (site / "page" / "index.html").write_text(f"<p>Unbalanced.{BALANCED}</p>")
    (problem,) = unrendered_claims(site, docs)
    assert str(problem.where) == f"{docs / 'page.md'}:3"
    assert problem.what.startswith("a claim came out of page/index.html unrendered: no link")
    (site / "page" / "index.html").write_text('<p>Unbalanced.<sup><a href="#x">✓</a></sup></p>')
    assert unrendered_claims(site, docs) == []


def test_claim_syntax_does_not_collide_with_directives() -> None:
    md = f"Unbalanced.{BALANCED}\n"
    assert find_directives(md, Path("docs/page.md")) == []
    (claim,) = parse_claims(md, Path("docs/page.md"))
    assert (claim.where.line, claim.evidence, claim.value, claim.quote) == (
        1,
        f"{NAME}#halt.transcript_balanced",
        "false",
        "is unbalanced",
    )


def test_single_quoted_values_may_hold_double_quotes(verified, project: Path) -> None:
    body = (
        f'The run ended with `status == "pending"`.<!-- claim evidence="{NAME}#halt.run_statuses" value="[pending]" '
        "quote='status == \"pending\"' -->\n"
    )
    assert "<!-- claim" not in render(project, verified[1], body)


def test_contains_finds_an_item_or_a_substring_of_one(verified, project: Path) -> None:
    ok = (
        f'Refused.<!-- claim evidence="{NAME}#halt.stdout_contains" contains="HTTP 400" quote="Refused" -->'
        f' Shown.<!-- claim evidence="{NAME}#halt.tool_results_shown" contains="Deploy api to production?" quote="Shown" -->\n'
    )
    assert "<!-- claim" not in render(project, verified[1], ok)
    wrong = f'Refused.<!-- claim evidence="{NAME}#halt.stdout_contains" contains="HTTP 500" quote="Refused" -->\n'
    assert failure(project, verified[1], wrong).startswith(
        f'{page_path(project)}:1: claim: {NAME}#halt.stdout_contains: the page says it contains "HTTP 500"; '
        'the evidence checked in this build is ["provider refused the transcript: HTTP 400", '
    )


def test_sub_keys_name_an_entry_and_list_the_valid_ones(verified, project: Path) -> None:
    ok = f'Posted once.<!-- claim evidence="{NAME}#halt.tool_runs.post_status" value="1" quote="Posted once" -->\n'
    assert "<!-- claim" not in render(project, verified[1], ok)
    wrong = f'Ran.<!-- claim evidence="{NAME}#halt.tool_runs.rollback" value="0" quote="Ran" -->\n'
    assert failure(project, verified[1], wrong) == (
        f"{page_path(project)}:1: claim points at nothing: run 'halt' has no evidence key 'tool_runs.rollback'\n"
        "    valid keys below 'tool_runs': tool_runs.deploy, tool_runs.post_status"
    )


def test_unknown_run_lists_the_runs(verified, project: Path) -> None:
    body = f'Ran.<!-- claim evidence="{NAME}#park.tool_runs" value="{{}}" quote="Ran" -->\n'
    assert failure(project, verified[1], body) == (
        f"{page_path(project)}:1: claim points at nothing: scenario '{NAME}' has no run 'park'\n"
        "    valid runs: inline, halt"
    )


def test_a_run_that_did_not_pass_backs_no_sentence(verified, project: Path) -> None:
    ledger = verified[1]
    programs = {
        rel: {**entry, "passed": False, "runs": {n: {**r, "passed": False} for n, r in entry["runs"].items()}}
        for rel, entry in ledger.programs.items()
    }
    failed = ledger_mod.Ledger(ledger.toolnexus, ledger.python, programs)
    assert failure(project, failed, SENTENCE) == (
        f"{page_path(project)}:2: claim: {NAME}#halt.transcript_balanced: run 'halt' "
        f"(snippets/{NAME}/several.py) did not pass in this build, so it backs no sentence"
    )


def test_the_source_list_shows_each_cited_line_as_installed(verified, project: Path) -> None:
    cited = (
        'It raises.<!-- claim evidence="source:toolnexus/client.py" contains="class ProviderError(Exception):" '
        f'quote="It raises" {WHY} -->\n'
    )
    (project / "docs/guide").mkdir()
    (project / "docs/guide/errors.md").write_text(cited)
    ctx = context(project, verified[1])
    (directive,) = find_directives("<!-- verified-sources -->\n", page_path(project, "reference/source-lines.md"))
    out = render_sources(directive, "reference/source-lines.md", ctx, {"guide/errors.md": "Errors"})
    source = (ctx.package / "client.py").read_text().splitlines()
    line = next(i for i, text in enumerate(source, start=1) if "class ProviderError(Exception):" in text)
    anchor = source_anchor("toolnexus/client.py", "class ProviderError(Exception):")
    assert (
        f'- <span id="{anchor}"></span>`toolnexus/client.py:{line}`: `class ProviderError(Exception):`  \n'
        "  cited by [Errors](../guide/errors.md)  \n"
        "  why no run shows it ([Errors](../guide/errors.md)): no scripted run reaches this line\n"
    ) in out


def test_a_claim_left_in_the_rendered_page_is_reported() -> None:
    source = f"# Page\n\nUnbalanced.{BALANCED}\n"
    assert claims.leftover_claims("# Page\n\nfine\n", Path("docs/page.md"), source) == []
    (problem,) = claims.leftover_claims(source, Path("docs/page.md"), source)
    assert str(problem) == f"docs/page.md:3: a claim was left in the page unrendered\n    Unbalanced.{BALANCED}"


# Through MkDocs: the real hook renders the claim into the built page and fails the build on it.
@pytest.fixture(scope="module")
def site_project(verified: tuple[Path, ledger_mod.Ledger], tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("site")
    shutil.copytree(verified[0] / "snippets", root / "snippets")
    ledger_mod.save(verified[1], root / "ledger.json")
    (root / "docs").mkdir()
    config = (ROOT / "mkdocs.yml").read_text()
    config = config[: config.index("nav:")] + "nav:\n  - page.md\n" + config[config.index("theme:") :]
    config = config.replace("verified_docs/site/mkdocs_hook.py", str(ROOT / "verified_docs/site/mkdocs_hook.py"))
    (root / "mkdocs.yml").write_text(config)
    return root


def test_the_build_links_a_checked_claim_and_refuses_a_contradicted_one(site_project: Path) -> None:
    page = site_project / "docs/page.md"
    page.write_text(f'# Page\n\n{SENTENCE}\n<!-- verified-evidence scenario="{NAME}" -->\n')
    built = build_site(site_project / "ledger.json", site_project / "site", config=site_project / "mkdocs.yml")
    assert built.returncode == 0, built.output
    html = (site_project / "site/page/index.html").read_text()
    assert (
        'unbalanced.<sup class="vd-claim"><a aria-label="Evidence checked in this build: '
        'suspension/several-suspensions, run halt, transcript_balanced" '
        'href="#evidence-suspension-several-suspensions--halt"'
    ) in html
    assert '<span id="evidence-suspension-several-suspensions--halt"></span>' in html
    opposite = SENTENCE.replace('value="false"', 'value="true"')
    page.write_text(f'# Page\n\n{opposite}\n<!-- verified-evidence scenario="{NAME}" -->\n')
    built = build_site(site_project / "ledger.json", site_project / "site", config=site_project / "mkdocs.yml")
    assert built.returncode != 0
    assert (
        f"{page}:4: claim: {NAME}#halt.transcript_balanced: the page says true; "
        "the evidence checked in this build says false"
    ) in built.output


def test_under_github_actions_a_contradicted_claim_annotates_its_page_line(site_project: Path, monkeypatch) -> None:
    page = site_project / "docs/page.md"
    opposite = SENTENCE.replace('value="false"', 'value="true"')
    page.write_text(f'# Page\n\n{opposite}\n<!-- verified-evidence scenario="{NAME}" -->\n')
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(site_project))
    built = build_site(site_project / "ledger.json", site_project / "site", config=site_project / "mkdocs.yml")
    assert built.returncode != 0
    # Titled by what went wrong, not by the stage (the hook's other page problems are "page
    # check failed"); the details (where the evidence is stated) follow encoded as %0A.
    head = (
        f"::error file=docs/page.md,line=4,title=claim contradicted::claim: "
        f"{NAME}#halt.transcript_balanced: the page says true; the evidence checked in this build says false%0A"
    )
    assert [line for line in built.output.splitlines() if line.startswith("::")][0].startswith(head)


def test_a_value_is_read_as_yaml_so_unquoted_colons_make_a_mapping(verified, project: Path) -> None:
    # The mistake this catches: the page's list looks right, but YAML reads each item as a mapping.
    body = (
        f'Shown.<!-- claim evidence="{NAME}#halt.tool_results_shown" value="[Deploy api: to production?]" '
        'quote="Shown" -->\n'
    )
    assert failure(project, verified[1], body).splitlines()[:2] == [
        f"{page_path(project)}:1: claim: {NAME}#halt.tool_results_shown: the page says [Deploy api: to production?]; "
        "the evidence checked in this build says [Deploy api to production?]",
        "    the page's value read as YAML: [{Deploy api: to production?}]",
    ]


def test_claims_one_right_after_another_share_their_sentence(verified, project: Path) -> None:
    second = f'<!-- claim evidence="{NAME}#halt.run_statuses" value="[pending]" quote="is unbalanced" -->'
    assert "<!-- claim" not in render(project, verified[1], f"It is unbalanced.{BALANCED}{second}\n")
    # ...but not across other words: those start a new sentence.
    assert failure(project, verified[1], f"It is unbalanced.{BALANCED} Next.{second}\n").startswith(
        f'{page_path(project)}:1: claim\'s words "is unbalanced" are not in its sentence'
    )


def test_a_program_changed_since_it_was_verified_backs_no_sentence(verified, project: Path) -> None:
    program = project / "snippets" / NAME / "several.py"
    program.write_text(program.read_text() + "\n# edited after verification\n")
    assert failure(project, verified[1], SENTENCE) == (
        f"{page_path(project)}:2: claim: {NAME}#halt.transcript_balanced: snippets/{NAME}/several.py changed after "
        "it was verified; verify it again"
    )


# The record of claimed sentences (render/claim_record.py): a sentence edited after its
# evidence was confirmed fails at its claim until `confirm-claims` checks it and records it.

PAGE = "suspension/several-suspensions.md"
REQUESTS = f'<!-- claim evidence="{NAME}#halt.model_requests" value="2" quote="asked the model twice" -->'
# Two claims in one sentence: the first mid-sentence (it records the words after it too).
CLAIMED = (
    "# Several\n\n"
    f"The halted run asked the model twice,{REQUESTS} and only `call_1` has a tool message:\n"
    f"the saved transcript is unbalanced.{BALANCED} Send it back and the provider refuses it.\n"
)
WHOLE = "The halted run asked the model twice, and only call_1 has a tool message: the saved transcript is unbalanced."


def with_record(project: Path, ledger: ledger_mod.Ledger, body: str, mode: str) -> str:
    """Render ``body`` as :data:`PAGE`, comparing its sentences with the project's record in ``mode``."""
    path = page_path(project, PAGE)
    path.write_text(body)
    sentences = claim_record.Sentences.load(project, mode)
    ctx = replace(context(project, ledger), sentences=sentences)
    try:
        return claims.render_claims(body, path, PAGE, ctx)
    finally:
        sentences.save()


def record_of(project: Path) -> dict[str, dict[str, str]]:
    return json.loads((project / claim_record.RECORD_FILE).read_text(encoding="utf-8"))


def recorded(project: Path, ledger: ledger_mod.Ledger) -> None:
    """The first build outside CI: it records both sentences."""
    with_record(project, ledger, CLAIMED, "record")
    assert record_of(project) == {
        PAGE: {
            f"{NAME}#halt.model_requests | asked the model twice": WHOLE,
            f"{NAME}#halt.transcript_balanced | is unbalanced": WHOLE,
        }
    }


def changed(project: Path, ledger: ledger_mod.Ledger, body: str, mode: str = "record") -> list[str]:
    with pytest.raises(SourceError) as e:
        with_record(project, ledger, body, mode)
    return [str(p) for p in e.value.problems]


def test_a_claimed_sentence_is_recorded_when_its_evidence_is_first_confirmed(verified, project: Path) -> None:
    recorded(project, verified[1])
    text = (project / claim_record.RECORD_FILE).read_text(encoding="utf-8")
    # One line per sentence, so a changed one is one line of the diff.
    assert [line for line in text.splitlines() if WHOLE in line] == [
        f'    "{NAME}#halt.model_requests | asked the model twice": "{WHOLE}",',
        f'    "{NAME}#halt.transcript_balanced | is unbalanced": "{WHOLE}"',
    ]
    with_record(project, verified[1], CLAIMED, "ci")  # recorded, so CI passes it


def test_an_inserted_negation_fails_at_the_claim_with_old_and_new_sentence(verified, project: Path) -> None:
    recorded(project, verified[1])
    negated = CLAIMED.replace("The halted run asked", "The halted run never asked")
    assert changed(project, verified[1], negated) == [
        f"{page_path(project, PAGE)}:{line}: claimed sentence changed since its evidence was confirmed\n"
        f'    was: "{WHOLE}"\n'
        f'    now: "{WHOLE.replace("run asked", "run never asked")}"\n'
        f"    if it holds, check and record it: nox -s confirm-claims -- {PAGE}"
        for line in (3, 4)
    ]
    assert record_of(project)[PAGE][f"{NAME}#halt.model_requests | asked the model twice"] == WHOLE  # kept


def test_a_changed_number_fails(verified, project: Path) -> None:
    recorded(project, verified[1])
    problems = changed(project, verified[1], CLAIMED.replace("`call_1`", "`call_2`"))
    assert len(problems) == 2 and all(
        'now: "The halted run asked the model twice, and only call_2 has' in p for p in problems
    )


def test_an_added_clause_fails_even_after_the_claim(verified, project: Path) -> None:
    recorded(project, verified[1])
    clause = CLAIMED.replace("is unbalanced.", "is unbalanced, unless the host answered first.")
    problems = changed(project, verified[1], clause)
    heads = [p.splitlines()[0] for p in problems]
    assert heads == [
        f"{page_path(project, PAGE)}:{n}: claimed sentence changed since its evidence was confirmed" for n in (3, 4)
    ]
    assert "is unbalanced, unless the host answered first." in problems[0]


def test_a_whitespace_only_reflow_passes_and_writes_nothing(verified, project: Path) -> None:
    recorded(project, verified[1])
    before = (project / claim_record.RECORD_FILE).stat().st_mtime_ns
    reflowed = (
        "# Several\n\n"
        f"The halted   run asked the model\ntwice,{REQUESTS}\nand only `call_1` has a tool\n"
        f"message: the saved transcript is unbalanced.{BALANCED}\nSend it back and the provider refuses it.\n"
    )
    with_record(project, verified[1], reflowed, "ci")
    assert (project / claim_record.RECORD_FILE).stat().st_mtime_ns == before


def test_the_sentence_after_the_claimed_one_is_not_part_of_it(verified, project: Path) -> None:
    recorded(project, verified[1])
    with_record(project, verified[1], CLAIMED.replace("the provider refuses it", "the provider accepts it"), "ci")


def test_under_ci_a_sentence_without_a_record_fails(verified, project: Path) -> None:
    assert changed(project, verified[1], CLAIMED, "ci")[0] == (
        f"{page_path(project, PAGE)}:3: claimed sentence has no record in rules/claimed-sentences.json, "
        "which must be committed\n"
        f'    sentence: "{WHOLE}"\n'
        f"    record it with nox -s confirm-claims -- {PAGE} and commit the file"
    )
    assert not (project / claim_record.RECORD_FILE).exists()


def test_editing_the_quote_with_its_sentence_still_fails(verified, project: Path) -> None:
    # A new key (the quote changed) whose page has a gone record of the same evidence is an edit.
    recorded(project, verified[1])
    edited = CLAIMED.replace("twice,", "twice, never once,").replace(
        'quote="asked the model twice"', 'quote="never once"'
    )
    problem, other = changed(project, verified[1], edited)
    assert problem.startswith(f"{page_path(project, PAGE)}:3: claimed sentence changed since its evidence")
    assert f'was (quote "asked the model twice"): "{WHOLE}"' in problem
    assert other.startswith(f"{page_path(project, PAGE)}:4: claimed sentence changed")  # it shares the sentence


def test_moving_the_paragraph_and_adding_a_claim_elsewhere_keep_the_record(verified, project: Path) -> None:
    recorded(project, verified[1])
    waits = f'It never waits.<!-- claim evidence="{NAME}#halt.wait_for_calls" value="0" quote="never waits" -->\n'
    again = f"It is unbalanced.{BALANCED}\n"  # the same evidence and quote: the second of its key
    moved = "# Several\n\n" + waits + "\n" + CLAIMED.split("\n\n", 1)[1] + "\n" + again
    with_record(project, verified[1], moved, "check")  # every recorded sentence is as it was
    with_record(project, verified[1], moved, "record")
    entries = record_of(project)[PAGE]
    assert entries[f"{NAME}#halt.wait_for_calls | never waits"] == "It never waits."
    assert entries[f"{NAME}#halt.transcript_balanced | is unbalanced | 2"] == "It is unbalanced."
    assert entries[f"{NAME}#halt.transcript_balanced | is unbalanced"] == WHOLE


def confirm_project(project: Path, ledger: ledger_mod.Ledger) -> Path:
    """``project`` as ``confirm-claims`` reads it: a mkdocs.yml and the ledger on disk."""
    (project / "mkdocs.yml").write_text("site_name: Claims\n")
    ledger_mod.save(ledger, project / ledger_mod.DEFAULT_LEDGER)
    return project / ledger_mod.DEFAULT_LEDGER


def test_confirm_checks_the_evidence_again_records_the_sentence_and_the_build_then_passes(
    verified, project: Path
) -> None:
    recorded(project, verified[1])
    ledger_path = confirm_project(project, verified[1])
    negated = CLAIMED.replace("The halted run asked", "The halted run never asked")
    changed(project, verified[1], negated)
    assert confirm_claims(project, ledger_path, (PAGE,)) == (2, [])
    assert set(record_of(project)[PAGE].values()) == {WHOLE.replace("run asked", "run never asked")}
    with_record(project, verified[1], negated, "ci")
    assert confirm_claims(project, ledger_path) == (0, [])  # nothing left to record


def test_confirm_records_no_claim_whose_evidence_fails_and_names_its_line(verified, project: Path) -> None:
    ledger_path = confirm_project(project, verified[1])
    wrong = CLAIMED.replace('value="2" quote="asked', 'value="3" quote="asked')
    page_path(project, PAGE).write_text(wrong)
    count, problems = confirm_claims(project, ledger_path, ("docs/" + PAGE,))
    assert count == 1 and [str(p.where) for p in problems] == [f"{page_path(project, PAGE)}:3"]
    assert list(record_of(project)[PAGE]) == [f"{NAME}#halt.transcript_balanced | is unbalanced"]


def test_records_of_gone_claims_are_reported_stale_and_confirm_drops_them(verified, project: Path) -> None:
    recorded(project, verified[1])
    ledger_path = confirm_project(project, verified[1])
    alone = CLAIMED.replace(REQUESTS, "")
    sentences = claim_record.Sentences.load(project, "record")
    ctx = replace(context(project, verified[1]), sentences=sentences)
    page_path(project, PAGE).write_text(alone)
    claims.render_claims(alone, page_path(project, PAGE), PAGE, ctx)
    stale = [(PAGE, f"{NAME}#halt.model_requests | asked the model twice")]
    assert sentences.stale(project / "docs") == stale
    assert "1 recorded sentence(s) in rules/claimed-sentences.json belong to no claim" in claim_record.stale_line(stale)
    assert confirm_claims(project, ledger_path) == (1, [])
    assert list(record_of(project)[PAGE]) == [f"{NAME}#halt.transcript_balanced | is unbalanced"]


def test_confirm_refuses_a_page_that_is_not_there_before_it_verifies(verified, project: Path, capsys) -> None:
    ledger_path = confirm_project(project, verified[1])
    with pytest.raises(SourceError, match="no page matches 'suspension/nope.md'"):
        confirm_claims(project, ledger_path, ("suspension/nope.md",))
    assert cli.main(["confirm-claims", "--root", str(project), "--only", "suspension/nope.md"]) == 2
    err = capsys.readouterr()
    assert "no page matches 'suspension/nope.md'" in err.err and "runs passed" not in err.out


@pytest.fixture(scope="module")
def ask_for_a_value(tmp_path_factory: pytest.TempPathFactory) -> Context:
    """What the build checks docs/suspension/ask-for-a-value.md's claims against: its scenario
    and run-statuses' verified for real, every page of docs/, and the committed record, in CI's mode."""
    # The page also cites run-statuses' tool-raises run.
    scenarios = {
        name: load_scenario(SNIPPETS / name, SNIPPETS)
        for name in ("suspension/ask-for-a-value", "suspension/run-statuses")
    }
    verdicts = [v for scenario in scenarios.values() for v in verify_scenario(scenario)]
    assert all(v.passed for v in verdicts), "\n".join(v.report() for v in verdicts)
    package, installed = installed_toolnexus()
    ledger = ledger_mod.build(verdicts, ROOT)
    record = claim_record.Sentences.load(ROOT, "ci")
    return Context(scenarios, ledger, ROOT, None, scan_site(ROOT / "docs"), package, installed, record)


def test_the_real_page_passes_as_recorded_and_fails_with_never_inserted(ask_for_a_value: Context) -> None:
    path = ROOT / "docs/suspension/ask-for-a-value.md"
    text = path.read_text(encoding="utf-8")
    claims.render_claims(text, path, "suspension/ask-for-a-value.md", ask_for_a_value)
    assert text.count("raises becomes an error result") == 1
    negated = text.replace("raises becomes an error result", "raises never becomes an error result")
    with pytest.raises(SourceError) as e:
        claims.render_claims(negated, path, "suspension/ask-for-a-value.md", ask_for_a_value)
    # The words stand on one line, the claims after them (one on a run, one on the source) on the next.
    line = next(i for i, s in enumerate(text.splitlines(), start=1) if "raises becomes an error result" in s)
    assert [(p.where.path, p.where.line) for p in e.value.problems] == [(path, line + 1)] * 2
    for problem in e.value.problems:
        assert problem.what == "claimed sentence changed since its evidence was confirmed"
        assert problem.details[1].startswith('now: "A @tool function that raises never becomes an error result')


def test_every_claimed_sentence_of_the_pages_is_recorded_as_it_stands_and_no_record_is_stale() -> None:
    # `nox -s docs` records a new sentence outside CI and warns about a stale record; the tests
    # require the committed record to be exactly the pages' claims, as a reviewer reads it.
    record = json.loads((ROOT / claim_record.RECORD_FILE).read_text(encoding="utf-8"))
    found = {}
    for path in sorted((ROOT / "docs").rglob("*.md")):
        # As the render stage reads a page: advice marks out first (claims.render_claims).
        page_claims = parse_claims(strip_advice(path.read_text(encoding="utf-8-sig")), path)
        keys = claim_record.keys(page_claims)
        if page_claims:
            found[path.relative_to(ROOT / "docs").as_posix()] = {
                k: claim_record.sentence(c) for k, c in zip(keys, page_claims, strict=True)
            }
    fix = f"run `nox -s confirm-claims` and commit {claim_record.RECORD_FILE}"
    unrecorded = [f"docs/{p}: {k}" for p, keys in found.items() for k in keys if k not in record.get(p, {})]
    assert not unrecorded, f"not recorded ({fix}): {unrecorded}"
    stale = [f"docs/{p}: {k}" for p, keys in record.items() for k in keys if k not in found.get(p, {})]
    assert not stale, f"records of claims gone ({fix}): {stale}"
    differ = [f"docs/{p}: {k}" for p, keys in found.items() for k, s in keys.items() if record[p][k] != s]
    assert not differ, f"changed since confirmed ({fix}): {differ}"


def test_a_full_stop_of_e_g_ends_no_sentence() -> None:
    body = f"Something else happened first. Then, e.g. The test, the transcript is unbalanced.{BALANCED}\n"
    (claim,) = parse_claims(body, Path(PAGE))
    assert claim_record.sentence(claim) == "Then, e.g. The test, the transcript is unbalanced."


# A sentence resting on source alone says why no run can show it (render/claim_why.py).
RAISES = (
    'It raises ProviderError.<!-- claim evidence="source:toolnexus/client.py" '
    'contains="class ProviderError(Exception):" quote="raises ProviderError"{why} -->\n'
)


def test_a_source_only_sentence_without_why_fails_at_its_line_naming_both_fixes(verified, project: Path) -> None:
    body = "# Errors\n\n" + RAISES.format(why="")
    assert failure(project, verified[1], body) == (
        f"{page_path(project)}:3: claim: source:toolnexus/client.py (class ProviderError(Exception):): "
        "the sentence rests on source alone, "
        "and the claim does not say why no run can show it\n"
        '    sentence: "It raises ProviderError."\n'
        '    back the sentence with a run: a claim evidence="<scenario>#<run>.<key>" (a key of a run\'s expect) '
        'or evidence="matrix:<scenario>"\n'
        '    or, where no run can show it, add why="<why no run can show it>" (4 words or more)'
    )


def test_a_rule_claim_is_no_run_and_a_why_of_three_words_is_too_short(verified, project: Path) -> None:
    with_rules(project)
    rule = '<!-- claim evidence="rule:S4" quote="raises ProviderError" -->'
    body = RAISES.format(why="").replace(" -->\n", f" -->{rule}\n")
    assert "the sentence rests on source alone" in failure(project, verified[1], body)
    short = failure(project, verified[1], RAISES.format(why=' why="no run shows"'))
    assert short.startswith(
        f"{page_path(project)}:1: claim: source:toolnexus/client.py (class ProviderError(Exception):): "
        'why="no run shows" is too short'
    )


def test_a_source_only_sentence_with_why_passes_and_the_reader_sees_the_why(verified, project: Path) -> None:
    out = render(project, verified[1], RAISES.format(why=f" {WHY}"), page="guide/other.md")
    link = re.search(r'\]\([^ ]+ "(?P<title>[^"]*)"\)\{ aria-label="(?P<label>[^"]*)" \}', out)
    assert link is not None, out
    for said in (link["title"], link["label"]):
        assert said.endswith(". Why no run shows it: no scripted run reaches this line"), said


def test_why_on_a_sentence_that_rests_on_a_run_fails(verified, project: Path) -> None:
    source = (
        f'<!-- claim evidence="source:toolnexus/client.py" contains="class ProviderError" quote="unbalanced" {WHY} -->'
    )
    body = f"# Several\n\n{SENTENCE.rstrip()}{source}\n"
    ran = f"{NAME}#halt.transcript_balanced"
    assert failure(project, verified[1], body) == (
        f"{page_path(project)}:4: claim: source:toolnexus/client.py (class ProviderError): "
        f"remove why=, the sentence rests on {ran}\n"
        "    why= is for a source: claim whose sentence no run backs"
    )
    on_a_run = SENTENCE.replace('quote="is unbalanced"', f'quote="is unbalanced" {WHY}')
    assert failure(project, verified[1], f"# Several\n\n{on_a_run}").startswith(
        f"{page_path(project)}:4: claim: {ran}: remove why=, the sentence rests on {ran}"
    )


def test_the_built_page_shows_the_why_and_a_missing_why_fails_the_mkdocs_build(site_project: Path) -> None:
    page = site_project / "docs/page.md"
    page.write_text("# Page\n\n" + RAISES.format(why=f" {WHY}") + "\n<!-- verified-sources -->\n")
    built = build_site(site_project / "ledger.json", site_project / "site", config=site_project / "mkdocs.yml")
    assert built.returncode == 0, built.output
    html = (site_project / "site/page/index.html").read_text()
    assert ". Why no run shows it: no scripted run reaches this line" in html.split('class="vd-claim"')[1][:600]
    assert "why no run shows it (<a href" in html and "): no scripted run reaches this line" in html
    page.write_text("# Page\n\n" + RAISES.format(why="") + "\n<!-- verified-sources -->\n")
    built = build_site(site_project / "ledger.json", site_project / "site", config=site_project / "mkdocs.yml")
    assert built.returncode != 0
    assert f"{page}:3: claim: source:toolnexus/client.py (class ProviderError(Exception):): the sentence rests on" in (
        built.output
    )
    assert built.output.count("the sentence rests on source alone") == 1
