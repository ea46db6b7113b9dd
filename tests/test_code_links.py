"""Code links (site/code_links.py): the toolnexus names a program bound are found where it uses
them, a local name that shadows one is not, and linking adds elements but no text."""

from __future__ import annotations

import html
import re
from pathlib import Path

from verified_docs.site.code_links import Target, _href, link_block, references

PROGRAM = """\
from toolnexus import Answer, create_client


def approve(request, Answer=None):
    return Answer


def build():
    return create_client(model="m", wait_for=lambda r: Answer(id=r.id, ok=True))


answers = [Answer(id=i, ok=True) for i in "ab"]
"""
NAMES = {"Answer": "toolnexus.types.Answer", "create_client": "toolnexus.client.create_client"}


def test_the_names_a_program_bound_are_found_where_it_uses_them(tmp_path: Path) -> None:
    path = tmp_path / "program.py"
    path.write_text(PROGRAM, encoding="utf-8")
    found = references(path, NAMES)
    assert found == {
        (1, 22): ("Answer", "toolnexus.types.Answer"),  # the import line
        (1, 30): ("create_client", "toolnexus.client.create_client"),
        # line 5: `return Answer` is approve's own parameter, so it is left out
        (9, 11): ("create_client", "toolnexus.client.create_client"),
        (9, 25): ("model", "toolnexus.client.create_client(model)"),
        (9, 36): ("wait_for", "toolnexus.client.create_client(wait_for)"),
        (9, 55): ("Answer", "toolnexus.types.Answer"),  # inside a lambda: still the global
        (9, 62): ("id", "toolnexus.types.Answer(id)"),
        (9, 71): ("ok", "toolnexus.types.Answer(ok)"),
        (12, 11): ("Answer", "toolnexus.types.Answer"),  # inside a comprehension
        (12, 18): ("id", "toolnexus.types.Answer(id)"),
        (12, 24): ("ok", "toolnexus.types.Answer(ok)"),
    }
    assert references(path, {}) == {}


def _pygments_like(source: str) -> str:
    """One span per line and per name, as pymdownx.highlight with line_spans writes them."""
    lines = []
    for n, line in enumerate(source.splitlines(), 1):
        body = re.sub(r"[A-Za-z_]\w*", lambda m: f'<span class="n">{m.group(0)}</span>', html.escape(line, quote=False))
        lines.append(f'<span id="__span-0-{n}">{body}\n</span>')
    return "<span></span><code>" + "".join(lines) + "</code>"


def test_linking_wraps_only_the_tokens_found_and_adds_no_text(tmp_path: Path) -> None:
    path = tmp_path / "program.py"
    path.write_text(PROGRAM, encoding="utf-8")
    code = _pygments_like(PROGRAM)
    hrefs = {
        "toolnexus.types.Answer": "../api/#a",
        "toolnexus.types.Answer.ok": "../api/#a--ok",  # a field: Answer(ok=...) links to it
        "toolnexus.client.create_client(wait_for)": "../api/#w",
    }
    linked, made = link_block(code, tuple(range(1, 13)), references(path, NAMES), hrefs)
    assert made == 6  # Answer imported and used twice, ok= twice, wait_for= once; create_client has no entry
    assert html.unescape(re.sub(r"<[^>]*>", "", linked)) == PROGRAM
    assert linked.count('<a class="vd-api-link" href="../api/#w"><span class="n">wait_for</span></a>') == 1
    assert '<span class="n">return</span> <span class="n">Answer</span>\n' in linked  # approve's own, plain


def test_a_link_is_relative_to_the_page_it_is_on(tmp_path: Path) -> None:
    api = Target(tmp_path / "reference/api/index.html", "api-toolnexus-answer")
    assert _href(tmp_path / "suspension/approval-gate/index.html", api) == "../../reference/api/#api-toolnexus-answer"
    assert _href(tmp_path / "reference/api/index.html", api) == "#api-toolnexus-answer"
    assert _href(tmp_path / "index.html", api) == "reference/api/#api-toolnexus-answer"
