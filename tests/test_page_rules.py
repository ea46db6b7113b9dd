"""The page rules the guard reads in the built HTML (site/page_rules.py), on hand-made pages: each
broken rule is a problem at the Markdown line, and the page as it should be passes. The browser
tests check the same on the real site, in Chromium."""

from __future__ import annotations

from pathlib import Path

from verified_docs.site.page_rules import page_rule_problems

GOOD_MD = """# Page

Some text:

- one item
- another item

## Details
"""
GOOD_HTML = """<html><head><link rel="stylesheet" href="../assets/main.css">
<link rel="canonical" href="https://example.org/page/"></head><body>
<div class="md-content"><article class="md-content__inner md-typeset">
<h1 id="page">Page<a class="headerlink" href="#page">&para;</a></h1>
<p>Some text:</p>
<ul><li>one item</li><li>another item</li></ul>
<h2 id="details">Details<a class="headerlink" href="#details">&para;</a></h2>
<p><a href="https://example.org/">a link is followed, not loaded</a></p>
<pre><code>x = 1
- not a list: code
</code></pre>
</article></div>
<nav><p>outside the content
- not checked</p></nav>
<script src="../assets/bundle.js"></script></body></html>"""


def project(tmp_path: Path, md: str, html: str) -> tuple[Path, Path]:
    docs, site = tmp_path / "docs", tmp_path / "site"
    docs.mkdir()
    (site / "page").mkdir(parents=True)
    (docs / "page.md").write_text(md, encoding="utf-8")
    (site / "page" / "index.html").write_text(html, encoding="utf-8")
    return site, docs


def test_a_page_that_meets_the_rules_passes(tmp_path: Path) -> None:
    assert page_rule_problems(*project(tmp_path, GOOD_MD, GOOD_HTML)) == []


def test_a_list_glued_to_its_paragraph_fails_at_its_first_item(tmp_path: Path) -> None:
    md = GOOD_MD.replace("Some text:\n\n- one", "Some text:\n- **one**")
    html = GOOD_HTML.replace(
        "<p>Some text:</p>\n<ul><li>one item</li><li>another item</li></ul>",
        "<p>Some text:\n- <strong>one</strong> item\n- another item</p>",
    )
    site, docs = project(tmp_path, md, html)
    (problem,) = page_rule_problems(site, docs)
    assert str(problem.where) == f"{docs / 'page.md'}:4"
    assert problem.what == "a list is left as raw Markdown in page/index.html: its items show their markers as text"
    assert problem.details == (
        "| - one item",
        "rule: a list starts after a blank line (CONTRIBUTING.md, Rules a page must meet)",
        "fix: leave a blank line between the paragraph and the list",
    )


def test_a_heading_id_another_element_carries_fails_at_the_heading(tmp_path: Path) -> None:
    html = GOOD_HTML.replace("<p>Some text:</p>", '<p>Some text:<span id="details"></span></p>')
    site, docs = project(tmp_path, GOOD_MD, html)
    (problem,) = page_rule_problems(site, docs)
    assert str(problem.where) == f"{docs / 'page.md'}:8"
    assert problem.what == (
        "heading 'Details' has the id 'details', which 2 elements of page/index.html carry: "
        "its anchor may lead elsewhere"
    )
    assert problem.details[1].startswith("fix: rename the heading")


def test_an_image_or_script_from_another_host_fails_at_its_line(tmp_path: Path) -> None:
    md = GOOD_MD + "\n![logo](https://cdn.example.com/logo.png)\n"
    html = GOOD_HTML.replace(
        "</article>",
        '<p><img alt="logo" src="https://cdn.example.com/logo.png"/></p></article>'
        '<script src="//cdn.example.com/x.js"></script>',
    )
    site, docs = project(tmp_path, md, html)
    problems = page_rule_problems(site, docs)
    assert [(str(p.where), p.what) for p in problems] == [
        (f"{docs / 'page.md'}:10", "page/index.html loads https://cdn.example.com/logo.png from another host"),
        (f"{docs / 'page.md'}", "page/index.html loads //cdn.example.com/x.js from another host"),
    ]
    assert problems[0].details[1] == "fix: put the file under docs/ and refer to it by a relative path"
