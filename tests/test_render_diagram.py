"""The verified-diagram directive: a figure per run drawn from the ledger, its steps in words,
its marker; refused, at the page and line, where the ledger cannot vouch for the run; and the
guard accepts exactly the Mermaid text the ledger's record draws."""

from __future__ import annotations

import html
from pathlib import Path

import pytest

from conftest import ROOT, SNIPPETS
from verified_docs.errors import SourceError
from verified_docs.ledger import Ledger, fingerprint, sha256_file
from verified_docs.render.diagram import render_diagrams
from verified_docs.render.directive import find_directives
from verified_docs.scenario.load import load_scenario
from verified_docs.site.guard import check_site
from verified_docs.verify.timeline import Message

PAGE = Path("docs/page.md")
PARK = [Message("host", "client", 'run("Deploy.")'), Message("client", "host", "pending (durable halt): Request", True)]


def ledger(stories: dict[str, list[Message]], passed: bool = True) -> Ledger:
    """A ledger holding answer-later's programs as verified now, each with its runs, with these
    stories by run (a run without one recorded no message)."""
    scenario = load_scenario(SNIPPETS / "suspension/answer-later", SNIPPETS)
    programs: dict[str, dict] = {}
    for run in scenario.runs:
        path = run.programs["python"].path
        entry = programs.setdefault(
            path.relative_to(ROOT).as_posix(),
            {
                "scenario": scenario.name,
                "language": "python",
                "passed": passed,
                "sha256": sha256_file(path),
                "sections": {},
                "runs": {},
            },
        )
        entry["runs"][run.name] = {
            "passed": passed,
            "golden_text_sha256": "",
            "story": [m.to_json() for m in stories.get(run.name, [])],
        }
    return Ledger("0.21.0", "3.11", programs)


def render(line: str, stories: dict[str, list[Message]], passed: bool = True) -> str:
    (directive,) = find_directives(f"# Page\n\n{line}\n", PAGE)
    scenario = load_scenario(SNIPPETS / "suspension/answer-later", SNIPPETS)
    return render_diagrams(directive, {scenario.name: scenario}, ledger(stories, passed), ROOT)


def test_each_run_with_messages_is_a_figure_and_the_rest_a_sentence() -> None:
    out = render('<!-- verified-diagram scenario="suspension/answer-later" -->', {"park": PARK})
    assert (
        out.count(
            '<div class="verified-diagram" role="figure" aria-label="Sequence diagram of run park of '
            'park.py, 2 messages" data-vd-messages="2" markdown="block">'
        )
        == 1
    )
    assert "```mermaid\n---\n" in out
    assert "sequenceDiagram\n    accTitle: What run park of suspension/answer-later did, in 2 messages\n" in out
    assert '    participant p1 as host<br>park.py\n    p1->>p0: run("Deploy.")\n' in out
    assert (
        '    1. host park.py → client: `run("Deploy.")`\n'
        "    1. client → host park.py: `pending (durable halt): Request`\n"
    ) in out
    assert "Run `park` of `park.py`, as it ran in this build: 2 messages" in out
    assert (
        "Run `resume` of `resume.py` sent the model no request and called no toolnexus run, tool or "
        '`wait_for`: nothing to draw.<span data-vd-directive="diagram-3"></span>'
    ) in out
    assert out.count('data-vd-directive="diagram-3"') == 4  # park's figure, a sentence for each other run


def test_run_picks_one_run_and_an_unknown_one_lists_the_valid_ones() -> None:
    out = render('<!-- verified-diagram scenario="suspension/answer-later" run="park" -->', {"park": PARK})
    assert "resume" not in out
    with pytest.raises(SourceError) as e:
        render('<!-- verified-diagram scenario="suspension/answer-later" run="later" -->', {"park": PARK})
    assert str(e.value) == (
        "docs/page.md:3: scenario 'suspension/answer-later' has no run 'later'\n"
        "    valid runs: park, resume-rephrased, resume, client-api"
    )


def test_a_run_the_ledger_does_not_show_passing_is_refused() -> None:
    with pytest.raises(SourceError) as e:
        render('<!-- verified-diagram scenario="suspension/answer-later" -->', {"park": PARK}, passed=False)
    assert str(e.value) == (
        "docs/page.md:3: snippets/suspension/answer-later/park.py did not pass in this build; "
        "the page cannot draw its run 'park'\n"
        "    run `nox -s docs`, which verifies every example before building"
    )


def test_a_scenario_with_nothing_to_draw_is_refused() -> None:
    with pytest.raises(SourceError) as e:
        render('<!-- verified-diagram scenario="suspension/answer-later" -->', {})
    assert str(e.value).startswith(
        "docs/page.md:3: no run of 'suspension/answer-later' sent the model a request "
        "or called toolnexus (a run, a tool, wait_for): there is nothing to draw"
    )


def test_the_guard_accepts_the_drawn_diagram_and_no_other(tmp_path: Path) -> None:
    book = ledger({"park": PARK})
    drawn = book.diagram("snippets/suspension/answer-later/park.py", "park")
    assert fingerprint(drawn) in book.verified_hashes()
    edited = drawn.replace("pending", "done")
    assert edited != drawn
    site = tmp_path / "site"
    (site / "page").mkdir(parents=True)
    blocks = "".join(f'<pre class="mermaid"><code>{html.escape(t)}</code></pre>' for t in (drawn, edited))
    (site / "page" / "index.html").write_text(f"<html><body>{blocks}</body></html>")
    (tmp_path / "docs").mkdir()
    problems, checked = check_site(site, tmp_path / "docs", book.verified_hashes(), set())
    assert checked == 2
    assert [p.what.split(":")[0] for p in problems] == ["code block #2 of page/index.html"]
