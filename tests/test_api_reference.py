"""The API reference (render/api_reference.py) is read from the installed toolnexus by griffe,
and the guard (site/api_check.py) fails a built page that shows anything else."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import ROOT, BuiltSite
from verified_docs.errors import Location, SourceError
from verified_docs.render.api_reference import docstring_markdown, entries, load_package, render_api_reference
from verified_docs.render.directive import find_directives
from verified_docs.scenario.rules import RULES_FILE, installed_package_dir, load_rules
from verified_docs.site.api_check import _page_problems, api_reference_problems, code_link_problems
from verified_docs.site.guard import built_page

PAGE = Path("docs/reference/api.md")
PACKAGE = installed_package_dir()


def _directive(names: str, line: int = 7):
    text = "\n" * (line - 1) + f'<!-- verified-api-reference names="{names}" -->\n'
    (d,) = find_directives(text, PAGE)
    return d


def _line_of(file: str, text: str) -> int:
    lines = (PACKAGE / file).read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def test_an_entry_is_what_griffe_reads_from_the_installed_package() -> None:
    names = "toolnexus.pending toolnexus.create_client(wait_for) toolnexus.RunResult(status)"
    (pending, wait_for, status) = entries(_directive(names), names, PACKAGE)
    assert pending.signature == load_package(PACKAGE)["pending"].final_target.signature()
    assert "id: Optional[str] = None" in pending.signature and pending.signature.endswith("-> ToolResult")
    assert (pending.file, pending.line) == ("toolnexus/types.py", _line_of("toolnexus/types.py", "def pending("))
    assert (pending.qualified, pending.anchor, pending.kind) == (
        "toolnexus.types.pending",
        "api-toolnexus-pending",
        "function",
    )
    assert pending.imported == "from toolnexus import pending" and "suspension" in (pending.docstring or "")
    (member,) = wait_for.members
    assert (member.text, member.key, member.anchor) == (
        "wait_for: Optional[WaitFor] = None",
        "toolnexus.client.create_client(wait_for)",
        "api-toolnexus-create-client--wait-for",
    )
    (field,) = status.members
    assert field.text.startswith("status: Literal[") and field.line == _line_of(
        "toolnexus/client.py", "    status: Literal["
    )


def test_a_method_entry_names_its_class() -> None:
    (resume,) = entries(
        _directive("toolnexus.agents.AgentRuntime.resume"), "toolnexus.agents.AgentRuntime.resume", PACKAGE
    )
    assert (resume.title, resume.kind, resume.imported) == ("AgentRuntime.resume", "async method of AgentRuntime", None)
    assert resume.signature == "resume(answer: Answer) -> TaskResult"


def test_an_unknown_name_fails_at_the_directive_with_the_names_close_to_it() -> None:
    with pytest.raises(SourceError) as e:
        entries(_directive("toolnexus.Answr", 12), "toolnexus.Answr", PACKAGE)
    assert str(e.value).startswith("docs/reference/api.md:12: toolnexus.Answr: toolnexus has no 'Answr' in toolnexus")
    assert "Answer" in e.value.problems[0].details[0]
    with pytest.raises(SourceError) as e:
        entries(_directive("toolnexus.create_client(wait)", 3), "toolnexus.create_client(wait)", PACKAGE)
    assert "has no parameter 'wait'" in str(e.value) and "wait_for" in str(e.value)
    with pytest.raises(SourceError, match="names: cannot read 'os.path'"):
        entries(_directive("os.path"), "os.path", PACKAGE)


def test_a_rule_whose_cited_line_is_in_a_definition_says_whether_the_port_departs() -> None:
    names = "toolnexus.RunResult(status,limit,pending)"
    text = render_api_reference(
        _directive(names),
        names,
        "reference/api.md",
        PACKAGE,
        "0.21.0",
        load_rules(ROOT / RULES_FILE),
        "reference/contract.md",
    )
    status_line = next(line for line in text.splitlines() if line.startswith("`status: "))
    assert "[S9 Three statuses](contract.md#s9) (the Python port **departs** from it)" in status_line
    pending_line = next(line for line in text.splitlines() if line.startswith("`pending: "))
    assert pending_line.endswith(": SPEC §10 [S8 Durable halt](contract.md#s8) (the Python port follows it)")
    assert "rules citing lines of this definition" not in text  # each rule at the field whose line it cites


def test_a_docstring_is_quoted_with_its_literals_as_code() -> None:
    assert docstring_markdown("Read ``a*b`` off a\n:class:`Request`.\n\nSecond (§10).") == (
        "> Read `a*b` off a `Request`.\n>\n> Second \\(§10\\)."
    )


def _expected():
    names = "toolnexus.pending toolnexus.create_client(wait_for)"
    return entries(_directive(names), names, PACKAGE)


def _page_html(expected, signature=None) -> str:
    parts = []
    for e in expected:
        parts.append(f'<h3 id="{e.anchor}" data-vd-api="{e.qualified}"><code>x</code></h3>')
        parts.append(f'<p data-vd-api-signature="{e.qualified}"><code>{signature or e.signature}</code></p>')
        parts.append(
            f'<p data-vd-api-source="{e.qualified}">defined at <code>{e.file}:{e.line}</code>, lines {e.line} to {e.end}</p>'
        )
        parts += [f'<p id="{m.anchor}" data-vd-api="{m.key}"><code>{m.text}</code></p>' for m in e.members]
    return "\n".join(parts)


def test_the_guard_fails_a_signature_that_is_not_what_griffe_reads() -> None:
    expected = _expected()
    where = Location(PAGE, 7)
    assert _page_problems(where, "reference/api/index.html", _page_html(expected), expected) == []
    problems = _page_problems(where, "reference/api/index.html", _page_html(expected, "pending(kind: str)"), expected)
    assert [str(p).splitlines()[0] for p in problems] == [
        "docs/reference/api.md:7: reference/api/index.html: the signature of toolnexus.types.pending is not what "
        "griffe reads from the installed toolnexus",
        "docs/reference/api.md:7: reference/api/index.html: the signature of toolnexus.client.create_client is not "
        "what griffe reads from the installed toolnexus",
    ]
    stale = _page_html(expected) + '<p data-vd-api-signature="toolnexus.types.Answer"><code>Answer()</code></p>'
    assert [p.what for p in _page_problems(where, "p.html", stale, expected)] == [
        "p.html: data-vd-api-signature='toolnexus.types.Answer' is asked for by no verified-api-reference directive"
    ]
    missing = _page_html(expected).replace('id="api-toolnexus-create-client--wait-for"', 'id="other"')
    assert [p.what for p in _page_problems(where, "p.html", missing, expected)] == [
        "p.html: parameter or field of toolnexus.client.create_client(wait_for) has id 'other', "
        "expected 'api-toolnexus-create-client--wait-for'"
    ]


@pytest.mark.parametrize("fixture", ["built_site", "zensical_site"])
def test_both_generators_show_the_reference_griffe_reads_and_link_code_to_it(
    request: pytest.FixtureRequest, fixture: str, built_site: BuiltSite
) -> None:
    site: BuiltSite = request.getfixturevalue(fixture)
    assert site.returncode == 0, site.output
    assert api_reference_problems(site.site, ROOT / "docs", PACKAGE) == []
    assert code_link_problems(site.site) == []
    links = re.search(r"links: (\d+) toolnexus name\(s\) linked .* in (\d+) of (\d+) program block", site.output)
    # Nearly every program imports a name with an entry; a program that imports none stays plain.
    assert links and int(links.group(1)) > 500 and int(links.group(2)) >= 0.9 * int(links.group(3)), site.output
    # The same links on the same pages whichever generator built them.
    page = built_page(site.site, ROOT / "docs", ROOT / "docs/suspension/approval-gate.md")
    mkdocs = built_page(built_site.site, ROOT / "docs", ROOT / "docs/suspension/approval-gate.md")
    hrefs = [
        re.findall(r'<a class="vd-api-link" href="([^"]+)"', p.read_text(encoding="utf-8")) for p in (page, mkdocs)
    ]
    assert hrefs[0] == hrefs[1] and "../../reference/api/#api-toolnexus-answer" in hrefs[0]
