"""Renderers: tabs carry include lines (never code through jinja); evidence reads as sentences."""

from __future__ import annotations

from conftest import SNIPPETS
from verified_docs.render.evidence import sentences
from verified_docs.render.templating import code
from verified_docs.scenario.load import load_scenario


def test_inline_code_survives_backticks() -> None:
    assert code("plain") == "`plain`"
    assert code("a `b` c") == "``a `b` c``"
    assert code("`edge`") == "`` `edge` ``"


def test_evidence_sentences_follow_the_scenario() -> None:
    scenario = load_scenario(SNIPPETS / "suspension/answer-later", SNIPPETS)
    runs = {r.name: r for r in scenario.runs}
    park, resume = sentences(runs["park"].expect), sentences(runs["resume"].expect)
    assert "`wait_for` was never called." in park
    assert "Run status: `pending`." in park
    assert (
        "`ctx.answer` at each tool execution, in order: `ask_human` got none; `ask_human` got "
        '`Answer(id="ask-fa3ca410e7", ok=True, data={"value": "staging"})`.'
    ) in resume
    assert "The tool results the model was shown: `the human replied: staging`." in resume
    assert "The model received 2 requests." in resume


def test_a_run_whose_output_the_page_shows_does_not_repeat_its_lines() -> None:
    scenario = load_scenario(SNIPPETS / "suspension/answer-constructors", SNIPPETS)
    park = next(r.expect for r in scenario.runs if r.expect.stdout_contains)
    assert park.stdout_contains, "the test needs a run with printed lines in its evidence"
    listed = sentences(park)
    folded = sentences(park, output_shown=True)
    printed = [s for s in listed if s.startswith("The program printed ")]
    assert len(printed) == len(park.stdout_contains)
    assert [s for s in folded if s.startswith("The program printed ")] == []
    n = len(park.stdout_contains)
    assert f"It printed the output shown on this page, {n} named line{'s' if n != 1 else ''} included." in folded
    assert len(folded) == len(listed) - len(printed) + 1


def test_the_reader_is_told_each_runs_command_line_and_the_files_to_keep_together() -> None:
    from verified_docs.render.evidence import reader_runs, scenario_files

    scenario = load_scenario(SNIPPETS / "suspension/answer-later", SNIPPETS)
    assert [(r.name, r.program, r.command) for r in reader_runs(scenario)] == [
        ("park", "park.py", "python park.py"),
        ("resume-rephrased", "resume.py", "python resume.py ask-fa3ca410e7 staging"),
        ("resume", "resume.py", "python resume.py ask-fa3ca410e7 staging"),
        ("client-api", "client_api.py", "python client_api.py"),
    ]
    assert [r.try_command for r in reader_runs(scenario)] == [
        "python -m verified_docs try suspension/answer-later --run park",
        "python -m verified_docs try suspension/answer-later \\\n    --run resume-rephrased",
        "python -m verified_docs try suspension/answer-later --run resume",
        "python -m verified_docs try suspension/answer-later --run client-api",
    ]
    assert scenario_files(scenario) == ("client_api.py", "park.py", "resume.py")
