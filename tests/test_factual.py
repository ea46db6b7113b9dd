"""The check that every likely-factual sentence carries a claim or an advice mark
(verified_docs/render/factual.py), on small pages and on the real docs."""

from __future__ import annotations

from pathlib import Path

import pytest

from verified_docs.errors import SourceError
from verified_docs.render.claim_source import installed_toolnexus
from verified_docs.render.factual import (
    ADVICE,
    NAVIGATION,
    PENDING_FILE,
    api_names,
    check_page,
    load_pending,
    page_problems,
    problems,
    strip_advice,
)

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CLAIM = '<!-- claim evidence="suspension/approval-gate#approve-then-decline.wait_for_calls" value="2" quote="runs" -->'


@pytest.fixture(scope="module")
def names() -> frozenset[str]:
    package, _ = installed_toolnexus()
    return api_names(package.parent)


def _check(text: str, names: frozenset[str]):
    return check_page(text, Path("docs/p.md"), "p.md", names)


def test_api_names_come_from_the_installed_package(names: frozenset[str]) -> None:
    # Names griffe reads from toolnexus 0.21.0: a class, a function, a parameter, a field.
    assert {"Answer", "pending", "wait_for", "answer", "create_client"} <= names
    assert "deploy" not in names  # a snippet's own tool, not toolnexus's


def test_a_factual_sentence_without_a_claim_fails_at_its_line(names: frozenset[str]) -> None:
    text = "# Title\n\nSome words first.\nThe loop runs the tool again with\nthe `Answer` in `ctx.answer`.\n"
    report = _check(text, names)
    assert [(u.where.line, u.names) for u in report.unclaimed] == [(4, ("Answer", "ctx", "answer"))]
    (problem,) = problems([report])
    assert str(problem.where) == "docs/p.md:4"
    assert "carries no claim" in problem.what
    assert any(ADVICE in d for d in problem.details) and any("<!-- claim evidence=" in d for d in problem.details)


def test_a_claimed_sentence_passes(names: frozenset[str]) -> None:
    text = f"The loop runs `wait_for` once per suspension.{CLAIM} Then it goes on.\n"
    report = _check(text, names)
    assert (report.factual, report.claimed, report.unclaimed) == (1, 1, ())


def test_a_claim_in_the_middle_of_its_sentence_covers_it(names: frozenset[str]) -> None:
    text = f"The loop runs{CLAIM} `wait_for` once per suspension, and `ctx.answer` holds the reply.\n"
    assert _check(text, names).unclaimed == ()


def test_the_next_sentence_needs_its_own_claim(names: frozenset[str]) -> None:
    text = f"The loop runs `wait_for` once.{CLAIM} The tool then reads `ctx.answer` again.\n"
    report = _check(text, names)
    assert [u.sentence for u in report.unclaimed] == ["The tool then reads ctx.answer again."]


def test_an_advice_marked_sentence_passes_and_the_mark_is_removed(names: frozenset[str]) -> None:
    text = f"A host should keep `Request.id` stable across runs.{ADVICE} Next.\n"
    report = _check(text, names)
    assert (report.factual, report.advice, report.unclaimed) == (1, 1, ())
    assert strip_advice(text) == "A host should keep `Request.id` stable across runs. Next.\n"


def test_an_advice_mark_covers_only_its_sentence(names: frozenset[str]) -> None:
    text = f"The tool reads `ctx.answer` here. Keep `wait_for` short, it blocks.{ADVICE}\n"
    report = _check(text, names)
    assert [u.sentence for u in report.unclaimed] == ["The tool reads ctx.answer here."]


def test_an_advice_mark_in_code_is_text(names: frozenset[str]) -> None:
    text = f"The tool reads `ctx.answer` `{ADVICE}` here.\n\n```python\nx = 1  {ADVICE}\n```\n"
    assert len(_check(text, names).unclaimed) == 1
    assert strip_advice(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "## What `wait_for` gets back from the `Answer`\n",  # a heading
        '!!! warning "The `Answer` is `ctx.answer` here, always"\n',  # an admonition's title
        "Use `wait_for` when the reviewer is around.\n",  # imperative
        "If nobody answers, give `wait_for` a timeout.\n",  # imperative after an opening clause
        "See [the `Answer` page](answer-later.md) for `wait_for`.\n",  # navigation
        "- [Answer later](answer-later.md): the durable `wait_for` posture.\n",  # a list of links
        "Does the loop check `Answer.id` at all?\n",  # a question
        "| `wait_for` | `Answer` |\n|---|---|\n| `ctx.answer` | inline |\n",  # labels in a table
        "```python\n# The loop runs `wait_for` and sets `ctx.answer` here.\n```\n",  # a fence
        "The page runs `nox -s docs` before `pip install toolnexus`.\n",  # commands, no API
    ],
)
def test_headings_navigation_advice_and_code_are_not_flagged(text: str, names: frozenset[str]) -> None:
    assert _check(text, names).factual == 0


def test_a_definition_is_factual(names: frozenset[str]) -> None:
    text = "A `Request` is what a tool returns when it must wait for a person.\n"
    assert len(_check(text, names).unclaimed) == 1


def test_a_block_claim_covers_its_sentence(names: frozenset[str]) -> None:
    text = (
        "Some text.\n\nAnd `wait_for` runs twice.<!-- claim evidence="
        '"suspension/approval-gate#approve-then-decline.wait_for_calls" quote="runs twice"\n'
        "value: 2\n-->\n\nThe `Answer` is the reply.\n"
    )
    report = _check(text, names)
    assert [(u.where.line, u.sentence) for u in report.unclaimed] == [(7, "The Answer is the reply.")]


def test_a_front_matter_offset_moves_the_line(names: frozenset[str]) -> None:
    report = check_page("The `Answer` is the reply.\n", Path("docs/p.md"), "p.md", names, first_line=5)
    assert report.unclaimed[0].where.line == 5


def test_a_pending_page_fails_when_its_count_changes(tmp_path: Path, names: frozenset[str]) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / PENDING_FILE).write_text("# pages not done\np.md 1\n")
    pending = load_pending(tmp_path)
    assert pending == {"p.md": (1, 2)}
    one = _check("The `Answer` is the reply.\n", names)
    two = _check("The `Answer` is the reply. The tool reads `ctx.answer`.\n", names)
    none = _check("Plain words.\n", names)
    assert page_problems(one, pending, tmp_path) == []
    assert "more than the 1" in page_problems(two, pending, tmp_path)[0].what
    assert "remove its line" in page_problems(none, pending, tmp_path)[0].details
    assert page_problems(one, {}, tmp_path)[0].where.line == 1  # not pending: the sentence fails


def test_a_malformed_pending_line_fails_at_its_line(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / PENDING_FILE).write_text("p.md\n")
    with pytest.raises(SourceError) as e:
        load_pending(tmp_path)
    assert e.value.problems[0].where.line == 1


def test_the_real_pages_have_no_unmarked_sentence(names: frozenset[str]) -> None:
    """Every page at 0. While rules/factual-pending.txt lists a page, this fails, naming it:
    the build lets a listed page through, this test does not."""
    counts = {}
    for path in sorted(DOCS.rglob("*.md")):
        rel = path.relative_to(DOCS).as_posix()
        report = check_page(path.read_text(encoding="utf-8"), path, rel, names)
        if report.unclaimed:
            counts[rel] = len(report.unclaimed)
    assert counts == {}, f"pages with unmarked likely-factual sentences (nox -s docs lists them): {counts}"


def test_a_navigation_mark_passes_and_is_removed(names: frozenset[str]) -> None:
    text = f"In every program on this site, the name `Answer` leads to its entry here.{NAVIGATION}\n"
    report = _check(text, names)
    assert (report.factual, report.advice, report.unclaimed) == (1, 1, ())
    assert NAVIGATION not in strip_advice(text)


def test_a_dotted_name_counts_by_its_head(names: frozenset[str]) -> None:
    assert _check("The tracer counts what `time.sleep` is asked for.\n", names).factual == 0
    assert _check("The tool reads `ctx.answer.data` there.\n", names).factual == 1
    assert _check("The loop sits in `toolnexus/client.py` and `host.py`.\n", names).factual == 0
