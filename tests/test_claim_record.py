"""The record of claimed sentences (rules/claimed-sentences.json): a claimed sentence edited in
any way fails at its page:line until `nox -s confirm-claims` records it; a reflow does not."""

# ruff: noqa: F811  (pytest fixtures imported from test_claims are parameters here)
from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_claims import BALANCED, NAME, context, project, verified  # noqa: F401 (fixtures)

from conftest import ROOT
from verified_docs.errors import SourceError
from verified_docs.render import claims
from verified_docs.render.claim_parse import parse_claims
from verified_docs.render.claim_record import RECORD_FILE, SentenceRecord, claim_keys, claimed_sentence

PAGE = "suspension/several-suspensions.md"
BODY = f"# Several\n\nOnly `call_1` of the 2 calls has a tool message:\nthe saved transcript is unbalanced.{BALANCED}\n"


def render(root: Path, ledger, body: str, *, confirm: bool = False) -> list[tuple[str, str]]:
    """Render ``body`` as the page, checking sentences against the project's record, which is
    then saved as the render stage saves it; the claims it did not hold before. Raises
    SourceError as the stage would."""
    path = root / "docs" / PAGE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body)
    record = SentenceRecord.open(root, confirm=confirm)
    ctx = context(root, ledger)
    claims.render_claims(body, path, PAGE, type(ctx)(**{**ctx.__dict__, "sentences": record}))
    new = record.new()
    record.save([PAGE])
    return new


def changed(root: Path, ledger, body: str) -> str:
    with pytest.raises(SourceError) as e:
        render(root, ledger, body)
    return str(e.value)


@pytest.fixture
def recorded(verified, project: Path) -> Path:
    assert render(project, verified[1], BODY) == [(PAGE, f"{NAME}#halt.transcript_balanced | is unbalanced")]
    saved = json.loads((project / RECORD_FILE).read_text())
    assert saved == {
        PAGE: {
            f"{NAME}#halt.transcript_balanced | is unbalanced": "Only call_1 of the 2 calls has a tool message: "
            "the saved transcript is unbalanced."
        }
    }
    return project


@pytest.mark.parametrize(
    "edit",
    [
        pytest.param(("has a tool message", "never has a tool message"), id="inserted-negation"),
        pytest.param(("the 2 calls", "the 3 calls"), id="changed-number"),
        pytest.param(("transcript is", "transcript, once resumed, is"), id="added-clause"),
    ],
)
def test_an_edited_claimed_sentence_fails_at_the_claim_with_old_and_new(verified, recorded: Path, edit) -> None:
    old, new = edit
    message = changed(recorded, verified[1], BODY.replace(old, new))
    assert f"{recorded / 'docs' / PAGE}:4: this claim's sentence changed since its evidence was confirmed" in message
    assert 'recorded: "Only call_1 of the 2 calls has a tool message:' in message
    assert f'now:      "{claimed_sentence(parse_claims(BODY.replace(old, new), Path(PAGE))[0])}"' in message
    assert "run `nox -s confirm-claims` (it checks the evidence again)" in message


def test_a_whitespace_reflow_of_a_claimed_sentence_passes(verified, recorded: Path) -> None:
    reflowed = BODY.replace("tool message:\nthe saved", "tool\nmessage:   the\n  saved")
    assert render(recorded, verified[1], reflowed) == []


def test_confirm_records_the_new_wording_then_the_build_passes_and_drops_claims_gone(verified, recorded: Path) -> None:
    edited = BODY.replace("the 2 calls", "the 3 calls")
    render(recorded, verified[1], edited, confirm=True)
    assert "the 3 calls" in (recorded / RECORD_FILE).read_text()
    render(recorded, verified[1], edited)  # passes now
    render(recorded, verified[1], "# Several\n\nNo claim here.\n")
    assert SentenceRecord.open(recorded).stale([PAGE]) == [(PAGE, f"{NAME}#halt.transcript_balanced | is unbalanced")]
    render(recorded, verified[1], "# Several\n\nNo claim here.\n", confirm=True)
    assert json.loads((recorded / RECORD_FILE).read_text()) == {}


def test_a_claim_whose_evidence_fails_is_not_recorded(verified, project: Path) -> None:
    with pytest.raises(SourceError):
        render(project, verified[1], BODY.replace('value="false"', 'value="true"'), confirm=True)
    assert not (project / RECORD_FILE).exists()


def test_the_same_claim_twice_on_a_page_gets_two_keys_and_keys_ignore_other_claims() -> None:
    body = f"A is unbalanced.{BALANCED}\n\nB is unbalanced.{BALANCED}\n"
    keys = claim_keys(parse_claims(body, Path(PAGE)))
    assert keys == [f"{NAME}#halt.transcript_balanced | is unbalanced"] * 1 + [
        f"{NAME}#halt.transcript_balanced | is unbalanced #2"
    ]


def test_the_sentence_starts_at_the_sentence_holding_the_quote() -> None:
    body = f"Something else happened first. Then, e.g. here, the transcript is unbalanced.{BALANCED}\n"
    assert claimed_sentence(parse_claims(body, Path(PAGE))[0]) == "Then, e.g. here, the transcript is unbalanced."


def _page_claims() -> dict[str, dict[str, str]]:
    found = {}
    for path in sorted((ROOT / "docs").rglob("*.md")):
        page = path.relative_to(ROOT / "docs").as_posix()
        page_claims = parse_claims(path.read_text(encoding="utf-8-sig"), path)
        if page_claims:
            found[page] = {k: claimed_sentence(c) for k, c in zip(claim_keys(page_claims), page_claims, strict=True)}
    return found


def test_every_claimed_sentence_of_the_pages_is_recorded_as_it_stands_and_no_entry_is_stale() -> None:
    # `nox -s docs` records a new sentence and warns about a stale entry; this test makes CI
    # require the committed record to be exactly the pages' claims, as a reviewer reads it.
    record = json.loads((ROOT / RECORD_FILE).read_text())
    found = _page_claims()
    unrecorded = [f"docs/{p}: {k}" for p, keys in found.items() for k in keys if k not in record.get(p, {})]
    stale = [f"{p}: {k}" for p, keys in record.items() for k in keys if k not in found.get(p, {})]
    differ = [
        f"docs/{p}: {k}" for p, keys in found.items() for k, s in keys.items() if record.get(p, {}).get(k, s) != s
    ]
    assert not unrecorded, (
        f"not recorded (run `nox -s docs` or `nox -s confirm-claims`, commit {RECORD_FILE}): {unrecorded}"
    )
    assert not stale, f"entries of claims gone (run `nox -s confirm-claims`): {stale}"
    assert not differ, f"changed since confirmed (run `nox -s confirm-claims`): {differ}"


def test_the_negation_edit_on_the_real_page_fails_against_the_committed_record() -> None:
    page = "suspension/ask-for-a-value.md"
    text = (ROOT / "docs" / page).read_text()
    edited = text.replace("that raises becomes an error result", "that raises never becomes an error result")
    assert edited != text
    record = SentenceRecord.open(ROOT)
    problems = record.check(page, parse_claims(edited, ROOT / "docs" / page))
    assert [p.where.line for p in problems] == [25]
    assert "never becomes an error result" in str(problems[0])
