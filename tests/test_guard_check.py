"""guard.check_site on hand-made inputs: what counts as verified, what does not."""

from __future__ import annotations

from pathlib import Path

from verified_docs.ledger import fingerprint
from verified_docs.site.built_html import code_blocks
from verified_docs.site.guard import check_site, python_fences

DOC = """# Page

```python
x = 1
```

=== "Tab"

    ```python
    y = 2
    ```

```python
z = 3
```
"""


def site_with(tmp_path: Path, *blocks: str, extra: str = "") -> Path:
    site = tmp_path / "site"
    (site / "page").mkdir(parents=True)
    body = "".join(f'<div class="highlight"><pre><span></span><code>{b}\n</code></pre></div>' for b in blocks)
    (site / "page" / "index.html").write_text(f"<html><body>{body}{extra}<p><code>inline</code></p></body></html>")
    return site


def docs_with(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "page.md").write_text(DOC)
    return docs


def test_pymdownx_style_markup_is_read_as_plain_text(tmp_path: Path) -> None:
    site = site_with(tmp_path, '<span class="n">a</span> <span class="o">=</span> &quot;b&quot;')
    (block,) = code_blocks(site)
    assert block.text == 'a = "b"\n'


def test_nested_fence_is_invisible_to_markdown_docs_and_fails_the_guard(tmp_path: Path) -> None:
    docs = docs_with(tmp_path)
    page = (docs / "page.md").resolve()
    fences = python_fences(docs)
    assert [(f.line, f.text) for f in fences] == [(3, "x = 1\n"), (13, "z = 3\n")]  # y = 2 is not a fence to it
    site = site_with(tmp_path, "x = 1", "y = 2", "z = 3", "print('hand written')", "verified()")
    problems, checked = check_site(site, docs, {fingerprint("verified()")}, {(str(page), 3)})
    assert checked == 5
    unverified = (
        "not a verified snippet section or output, nor a fence pytest-markdown-docs executed "
        "(a hand-written block, a fence nested in a tab or admonition, or an unclosed section?)"
    )
    assert [str(p).splitlines()[0] for p in problems] == [
        f"{docs / 'page.md'}:10: code block #2 of page/index.html: {unverified}",
        f"{page}:13: code block #3 of page/index.html: Python fence was not executed in this run "
        "(deselected, failed, or marked notest)",
        f"{docs / 'page.md'}: code block #4 of page/index.html: {unverified}",
    ]
    assert problems[0].details == ("| y = 2",)


def test_tab_set_with_a_repeated_label_is_reported(tmp_path: Path) -> None:
    labels = '<div class="tabbed-labels"><label for="a">Python</label><label for="b">Python</label></div>'
    site = site_with(tmp_path, "verified()", extra=labels)
    problems, _ = check_site(site, docs_with(tmp_path), {fingerprint("verified()")}, set())
    assert [p.what for p in problems] == [
        "tab set #1 has several tabs labelled Python; only the first can be seen (two examples merged?)"
    ]


def labels_html(*labels: str) -> str:
    return '<div class="tabbed-labels">' + "".join(f"<label for=x>{x}</label>" for x in labels) + "</div>"


def test_tab_sets_material_would_link_by_mistake_are_problems(tmp_path: Path) -> None:
    from verified_docs.site.guard import linked_label_problems

    site = site_with(
        tmp_path,
        extra=labels_html("Python")
        + labels_html("Python")
        + labels_html("Inline host", "Durable host")
        + labels_html("Inline output", "Durable output"),
    )
    assert linked_label_problems(site, frozenset({"Python"})) == []
    (site / "other").mkdir()
    (site / "other" / "index.html").write_text(labels_html("Inline host", "Later") + labels_html("Python", "Notes"))
    problems = [p.what for p in linked_label_problems(site, frozenset({"Python"}))]
    assert problems == [
        "other/index.html tab set #2 mixes language tabs with ['Notes']",
        "page/index.html tab set #3 reuses the label 'Inline host' of other/index.html tab set #1; "
        "Material would switch both sets together",
    ]


DIRECTIVES = """# Page

<!-- verified-example scenario="g/s" program="main" section="tool" -->

<!-- verified-evidence scenario="g/s" -->

<!-- verified-matrix -->
"""
# What the templates render: an example's wrapper (around a tab set when several languages ran),
# a collapsed evidence box, a table.
TABS = (
    '<div class="vd-example"><div class="tabbed-set tabbed-alternate"><div class="tabbed-content">'
    '<div class="tabbed-block">{}</div></div></div></div>'
)
BOX = '<details class="success"><summary>Checked on every build: 3 checks held</summary><p>text{}</p></details>'
TABLE = "<table><thead><tr><th>Scenario{}</th></tr></thead></table>"


def marked(kind: str, line: int, tag: str = "span") -> str:
    return f'<{tag} data-vd-directive="{kind}-{line}"></{tag}>'


def directive_site(tmp_path: Path, body: str, md: str = DIRECTIVES) -> tuple[Path, Path]:
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    (docs / "page.md").write_text(md)
    site = tmp_path / "site"
    (site / "page").mkdir(parents=True, exist_ok=True)
    (site / "page" / "index.html").write_text(f"<html><body><article>{body}</article></body></html>")
    return site, docs


def test_every_directive_that_came_out_as_its_block_passes(tmp_path: Path) -> None:
    from verified_docs.site.guard import directive_problems

    body = (
        TABS.format(marked("example", 3, "small") + "<input type=radio>" + marked("example", 3, "small"))
        + BOX.format(marked("evidence", 5))
        + TABLE.format(marked("matrix", 7))
    )
    assert directive_problems(*directive_site(tmp_path, body)) == []


def test_a_page_with_fewer_verified_blocks_than_directives_fails_at_the_first_missing(tmp_path: Path) -> None:
    from verified_docs.site.guard import directive_problems

    site, docs = directive_site(
        tmp_path, TABS.format(marked("example", 3, "small")) + TABLE.format(marked("matrix", 7))
    )
    assert [str(p) for p in directive_problems(site, docs)] == [
        f"{docs / 'page.md'}:5: verified-evidence did not come out in page/index.html: "
        "2 of the page's 3 directive(s) did; this is the first that did not"
    ]


def test_a_page_built_without_the_hook_has_no_marker_and_fails(tmp_path: Path) -> None:
    # What a generator that runs no hooks (Zensical) leaves: the directives as HTML comments.
    from verified_docs.site.guard import directive_problems

    site, docs = directive_site(tmp_path, '<!-- verified-example scenario="g/s" program="main" section="tool" -->')
    assert [str(p) for p in directive_problems(site, docs)] == [
        f"{docs / 'page.md'}:3: verified-example did not come out in page/index.html: none of the page's 3 "
        "directive(s) did (no data-vd-directive marker at all: was the page built from docs/ as written, without the render stage?)"
    ]


def test_a_marker_outside_its_block_or_in_a_code_block_does_not_count(tmp_path: Path) -> None:
    from verified_docs.site.guard import directive_problems

    escaped = "<pre><code>&lt;small data-vd-directive=&quot;evidence-5&quot;&gt;</code></pre>"
    body = "<p>" + marked("example", 3, "small") + "</p>" + escaped + TABLE.format(marked("matrix", 7))
    site, docs = directive_site(tmp_path, body)
    assert [str(p) for p in directive_problems(site, docs)] == [
        f"{docs / 'page.md'}:3: verified-example did not come out in page/index.html: its marker is not inside a "
        "vd-example element, so the block did not; 1 of the page's 3 directive(s) did"
    ]


def test_an_unclosed_fence_a_stray_marker_and_an_unbuilt_page_are_problems(tmp_path: Path) -> None:
    from verified_docs.site.guard import directive_problems

    site, docs = directive_site(tmp_path, marked("example", 9), md="# Page\n\n```text\n" + DIRECTIVES)
    (docs / "other.md").write_text('# Other\n\n<!-- verified-evidence scenario="g/s" -->\n')
    (docs / "plain.md").write_text("# Plain\n")
    site_page = site / "page" / "index.html"
    assert [str(p).splitlines()[0] for p in directive_problems(site, docs)] == [
        f"{docs / 'other.md'}:3: verified-evidence did not come out: the page was not built into {site}",
        f"{docs / 'page.md'}:3: code fence '```text' is never closed: it swallows everything after it",
    ]
    (docs / "page.md").write_text(DIRECTIVES)
    (docs / "other.md").unlink()
    site_page.write_text(
        TABS.format(marked("example", 3))
        + BOX.format(marked("evidence", 5))
        + TABLE.format(marked("matrix", 7) + marked("matrix", 9))
    )
    assert [str(p) for p in directive_problems(site, docs)] == [
        f'{site_page}: marker data-vd-directive="matrix-9" matches no directive of '
        f"{docs / 'page.md'} (a stale page, or lines miscounted?)"
    ]


def test_a_raw_builds_report_is_one_line_per_page_with_its_first_problems(tmp_path) -> None:
    # A site the generator built alone: hundreds of unrendered claims per page, found at the
    # page's Markdown line and at its built HTML, and a page with one problem only.
    from verified_docs.build import grouped_report
    from verified_docs.errors import Location, Problem

    docs, site = tmp_path / "docs", tmp_path / "site"
    page, html = docs / "guide" / "raw.md", site / "guide" / "raw" / "index.html"
    twin, other = site / "guide" / "raw" / "index.html.md", docs / "index.md"
    problems = [
        Problem(Location(page, 10 + i), f"a claim came out unrendered ({i})", ("<!-- claim -->",)) for i in range(800)
    ]
    problems.insert(1, Problem(Location(other, 3), "a directive came out unrendered", ("detail",)))
    problems.insert(3, Problem(Location(html, 0), "a claim came out unrendered (in the HTML)"))
    problems.append(Problem(Location(twin, 0), "the twin holds a claim comment"))
    lines = grouped_report(problems, docs=docs, site=site)
    assert lines[:2] == [
        f"{page}: 802 problems, the first 3: line 10: a claim came out unrendered (0); "
        f"line 11: a claim came out unrendered (1); {html}: a claim came out unrendered (in the HTML)",
        f"{other}:3: a directive came out unrendered",
    ]
    assert lines[2].startswith("2 page(s) with problems, one line each, some with more than 3: was the site built by")
    assert len(lines) == 3


def test_a_report_without_a_crowded_page_prints_every_problem_whole(tmp_path) -> None:
    from verified_docs.build import grouped_report
    from verified_docs.errors import Location, Problem

    docs = tmp_path / "docs"
    problems = [Problem(Location(docs / f"p{i % 2}.md", i), f"problem {i}", ("its detail",)) for i in range(6)]
    assert grouped_report(problems, docs=docs, site=tmp_path / "site") == [str(p) for p in problems]
    assert "    its detail" in grouped_report(problems)[0]


def test_a_page_and_its_built_files_share_one_key(tmp_path) -> None:
    from verified_docs.build import page_key

    docs, site = tmp_path / "docs", tmp_path / "site"
    for key, paths in {
        "guide/raw": (docs / "guide/raw.md", site / "guide/raw/index.html", site / "guide/raw/index.html.md"),
        "guide": (docs / "guide/index.md", site / "guide/index.html"),
        "": (docs / "index.md", site / "index.html", site / "index.html.md"),
        "reindex": (docs / "reindex.md", site / "reindex/index.html"),
    }.items():
        assert {page_key(p, docs, site) for p in paths} == {key}, paths
    assert page_key(tmp_path / "elsewhere.txt", docs, site) == str(tmp_path / "elsewhere.txt")
