"""guard.check_site on hand-made inputs: what counts as verified, what does not."""
from __future__ import annotations

from pathlib import Path

from verified_docs.guard import check_site, code_blocks, python_fences
from verified_docs.ledger import fingerprint

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


def site_with(tmp_path: Path, *blocks: str) -> Path:
    site = tmp_path / "site"
    site.mkdir()
    body = "".join(f'<div class="highlight"><pre><span></span><code>{b}\n</code></pre></div>' for b in blocks)
    (site / "index.html").write_text(f"<html><body>{body}<p><code>inline</code></p></body></html>")
    return site


def test_pymdownx_style_markup_is_read_as_plain_text(tmp_path: Path) -> None:
    site = site_with(tmp_path, '<span class="n">a</span> <span class="o">=</span> &quot;b&quot;')
    (block,) = code_blocks(site)
    assert block.text == 'a = "b"\n'


def test_nested_fence_is_invisible_to_markdown_docs_and_fails_the_guard(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "page.md").write_text(DOC)
    fences = python_fences(docs)
    assert [(f.line, f.text) for f in fences] == [(3, "x = 1\n"), (13, "z = 3\n")]  # y = 2 is not a fence to it
    site = site_with(tmp_path, "x = 1", "y = 2", "z = 3", "print('hand written')", "verified()")
    executed = {(str((docs / "page.md").resolve()), 3)}
    problems, checked = check_site(site, docs, {fingerprint("verified()")}, executed)
    assert checked == 5
    assert [str(p).splitlines()[0] for p in problems] == [
        f"{site / 'index.html'}: code block #2: not a verified snippet section or output, nor a fence "
        "pytest-markdown-docs executed (a hand-written block, a fence nested in a tab or admonition, or an unclosed section?)",
        f"{site / 'index.html'}: code block #3: Python fence at {(docs / 'page.md').resolve()}:13 was not executed "
        "in this run (deselected, failed, or marked notest)",
        f"{site / 'index.html'}: code block #4: not a verified snippet section or output, nor a fence "
        "pytest-markdown-docs executed (a hand-written block, a fence nested in a tab or admonition, or an unclosed section?)",
    ]
    assert problems[0].details == ("| y = 2",)
