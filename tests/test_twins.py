"""The Markdown twins (verified_docs/site/twins.py) and llms.txt / llms-full.txt
(verified_docs/site/llms_txt.py), on a small rendered project: two pages as the render stage
writes them, a program with a section and its golden output."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from verified_docs.errors import SourceError
from verified_docs.site.llms_txt import LLMS_FULL, LLMS_TXT, nav_sections, plan_llm_files, write_llm_files
from verified_docs.site.twins import page_address, relative, twin_address, twin_of

PROGRAM = '''"""A demo."""
# --8<-- [start:tool]
def tool():
    return "``` inside"
# --8<-- [end:tool]
print(tool())
'''
SHOWN = '"""A demo."""\ndef tool():\n    return "``` inside"\nprint(tool())'

GUIDE = """# Guide: the demo {#guide}

It returns text.<sup class="vd-claim">[✓](#evidence-demo--main "Checked in this build: demo, run main: tool_runs.tool is 1"){ aria-label="Evidence checked in this build: demo, run main, tool_runs.tool" }</sup><sup class="vd-claim">[demo.py:3](../index.md#source-demo "toolnexus 0.21.0, demo.py:3: return &#91;x&#93; *y* | z"){ aria-label="Source line" }</sup> See [home](../index.md#start) and [below](#evidence-demo).

<div class="vd-example" markdown>

``` { .python .vd-program title="Python · demo.py" data-vd-focus="2-3" data-vd-section="tool" }
--8<-- "snippets/demo/demo.py"
```

``` { .text .vd-output title="Output of demo.py" }
--8<-- "snippets/demo/demo.py.out"
```

<small class="verified-note" data-vd-directive="example-7">Ran green · [download demo.py](../verified-src/snippets/demo/demo.py){ download="demo.py" title="demo.py as it ran" }</small>

</div>

===! "First tab"

    Tab text, with `<!-- not a comment -->` in code.<!-- a comment -->

=== "Second tab"

    ```python
    print("a fence in a tab")
    ```

??? success "Checked on every build: 1 check held"

    <span id="evidence-demo"></span><span id="evidence-demo--main"></span>**main (demo.py)**

    - `tool` ran once.<span data-vd-directive="evidence-30"></span>

!!! note

    A note.



Last line.
"""

EXPECTED_GUIDE = """# Guide: the demo

> The Markdown twin of [this page](./) of *Demo site*: every program shown whole, as it ran in this build; every output as the build checked it; every claim with its evidence.

It returns text. (Checked in this build: demo, run main: tool_runs.tool is 1; [evidence](./#evidence-demo--main)) (toolnexus 0.21.0, demo.py:3: return \\[x\\] \\*y\\* \\| z; [evidence](../../#source-demo)) See [home](../../index.html.md#start) and [below](index.html.md#evidence-demo).

**Python · demo.py**, the whole program; the text is about lines 2-3 (section `tool`):
````python
""\"A demo.""\"
def tool():
    return "``` inside"
print(tool())
````

**Output of demo.py**:
````text
``` inside
````

Ran green · [download demo.py](../../verified-src/snippets/demo/demo.py)

**First tab**

Tab text, with `<!-- not a comment -->` in code.

**Second tab**

```python
print("a fence in a tab")
```

**Checked on every build: 1 check held**

**main (demo.py)**

- `tool` ran once.

**Note**

A note.

Last line.
"""


def _project(root: Path) -> Path:
    """A rendered tree (docs/ as the render stage writes it, a generated mkdocs.yml) and the
    project files its include lines name; returns the configuration."""
    (root / "snippets" / "demo").mkdir(parents=True)
    (root / "snippets" / "demo" / "demo.py").write_text(PROGRAM, encoding="utf-8")
    (root / "snippets" / "demo" / "demo.py.out").write_text("``` inside\n", encoding="utf-8")
    docs = root / "build" / "rendered" / "docs"
    (docs / "guide").mkdir(parents=True)
    (docs / "index.md").write_text("# Demo home\n\n## Start {#start}\n\nWelcome.\n", encoding="utf-8")
    (docs / "guide" / "demo.md").write_text(GUIDE, encoding="utf-8")
    config = root / "build" / "rendered" / "mkdocs.yml"
    config.write_text(
        "site_name: Demo site\n"
        "site_description: A site about a demo.\n"
        "docs_dir: docs\nsite_dir: site\n"
        "nav:\n  - Home: index.md\n  - Guides:\n      - The demo: guide/demo.md\n"
        f"markdown_extensions:\n  - pymdownx.snippets:\n      base_path: ['{root}']\n",
        encoding="utf-8",
    )
    return config


def test_a_twin_is_the_page_as_markdown_with_programs_whole_and_claims_in_words(tmp_path: Path) -> None:
    _project(tmp_path)
    page = tmp_path / "build" / "rendered" / "docs" / "guide" / "demo.md"
    twin = twin_of(GUIDE, "guide/demo.md", file=page, bases=(tmp_path,), site_name="Demo site")
    assert (twin.address, twin.twin) == ("guide/demo/", "guide/demo/index.html.md")
    assert twin.text == EXPECTED_GUIDE
    # The same text for llms-full.txt, with its links from the site's root.
    root_links = [
        "[this page](guide/demo/)",
        "[evidence](guide/demo/#evidence-demo--main)",
        "[evidence](./#source-demo)",
        "[home](index.html.md#start)",
        "[below](guide/demo/index.html.md#evidence-demo)",
        "[download demo.py](verified-src/snippets/demo/demo.py)",
    ]
    assert all(link in twin.text_from_root for link in root_links), twin.text_from_root
    assert twin.text_from_root.count("](") == len(root_links)


def test_an_include_of_a_missing_file_fails_at_the_rendered_line(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    with pytest.raises(SourceError) as caught:
        twin_of('# T\n\n```text\n--8<-- "gone.out"\n```\n', "page.md", file=page, bases=(tmp_path,), site_name="S")
    assert [str(p.where) for p in caught.value.problems] == [f"{page}:4"]
    assert "cannot include 'gone.out'" in caught.value.problems[0].what


@pytest.mark.parametrize(
    ("src_uri", "directory_urls", "address", "twin"),
    [
        ("index.md", True, "", "index.html.md"),
        ("a/index.md", True, "a/", "a/index.html.md"),
        ("a/b.md", True, "a/b/", "a/b/index.html.md"),
        ("a/README.md", True, "a/", "a/index.html.md"),
        ("a/b.md", False, "a/b.html", "a/b.html.md"),
        ("index.md", False, "index.html", "index.html.md"),
    ],
)
def test_a_twin_sits_at_its_page_address_plus_md(src_uri: str, directory_urls: bool, address: str, twin: str) -> None:
    assert page_address(src_uri, directory_urls) == address
    assert twin_address(address) == twin


def test_links_are_relative_to_the_folder_of_the_document_holding_them() -> None:
    assert relative("a/b/", "a/c/") == "../b/"
    assert relative("", "a/c/") == "../../"
    assert relative("a/c/", "a/c/") == "./"
    assert relative("a/c/index.html.md", "") == "a/c/index.html.md"
    assert relative("", "") == "./"


EXPECTED_INDEX = """# Demo site

> A site about a demo.

Each link below leads to a page of this site as Markdown (its twin, at the page's address plus `.md`, or plus `index.html.md` where the address ends in `/`): the page's text, every example's program shown whole, the output the build checked it printed, and each claim with its evidence in words. [llms-full.txt](llms-full.txt) holds every twin in one file, in this order.

## Other pages

- [Home](index.html.md): Demo home. Sections: Start.

## Guides

- [The demo](guide/demo/index.html.md): Guide: the demo.
"""


def test_llms_txt_lists_every_twin_by_nav_section_and_llms_full_holds_them_all(tmp_path: Path) -> None:
    config = _project(tmp_path)
    docs = config.parent / "docs"
    written = write_llm_files(config, ("guide/demo.md", "index.md"))
    site = config.parent / "site"
    assert [t.src_uri for t in written.twins] == ["index.md", "guide/demo.md"]
    assert (site / "guide" / "demo" / "index.html.md").read_text(encoding="utf-8") == EXPECTED_GUIDE
    assert (site / LLMS_TXT).read_text(encoding="utf-8") == EXPECTED_INDEX
    full = (site / LLMS_FULL).read_text(encoding="utf-8")
    head = "# Demo site\n\n> A site about a demo.\n\nEvery page of this site follows as Markdown, in the order of [llms.txt](llms.txt).\n\n"
    assert full == head + "\n".join(t.text_from_root for t in written.twins)
    assert written.llms_full == len(full.encode("utf-8")) and (docs / "index.md").is_file()


def test_planned_llm_files_write_nothing_until_written_then_only_what_changed_or_went(tmp_path: Path) -> None:
    """plan_llm_files reads the rendered tree only (the author loop runs it while Zensical
    builds); write() then writes the twins made anew, any kept twin the site lost, and the two
    indexes, the same bytes write_llm_files writes."""
    config = _project(tmp_path)
    site = config.parent / "site"
    pages = ("guide/demo.md", "index.md")
    first = plan_llm_files(config, pages)
    assert not site.exists() or not any(site.rglob("*.md")), "planning wrote a file"
    first.write()
    wrote = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    guide, home = site / "guide" / "demo" / "index.html.md", site / "index.html.md"
    home.unlink()  # a generator that cleans the site removed a kept twin
    before = guide.stat().st_mtime_ns
    again = plan_llm_files(config, pages, rewrite=(), kept=first.every)
    assert again.again == frozenset() and again.every == first.every
    again.write()
    assert home.read_bytes() == wrote[home], "the kept twin the site lost is written again"
    assert guide.stat().st_mtime_ns == before, "a kept twin still in the site is left alone"
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == wrote
    shutil.rmtree(site)
    write_llm_files(config, pages)
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == wrote


def test_pages_outside_a_nav_section_or_the_nav_go_under_other_pages() -> None:
    nav = [{"Home": "index.md"}, {"Part": [{"One": "a.md"}, {"Sub": [{"Two": "b.md"}]}]}, "c.md"]
    assert nav_sections(nav, ("a.md", "b.md", "c.md", "d.md", "index.md")) == [
        ("Other pages", [("Home", "index.md"), ("", "c.md"), ("", "d.md")]),
        ("Part", [("One", "a.md"), ("Two", "b.md")]),
    ]
    assert nav_sections([{"Part": ["a.md"]}], ("a.md", "z.md")) == [
        ("Part", [("", "a.md")]),
        ("Other pages", [("", "z.md")]),
    ]


def test_a_twin_shows_an_escaped_marker_as_the_html_does(tmp_path: Path) -> None:
    """The render stage leaves a page that shows an escaped snippets marker to the generator's
    own pymdownx.snippets pass, which takes the ';' off; the twin reads the page after that
    pass too (write_twins), so it says what the HTML says."""
    from verified_docs.site.twins import write_twins

    docs, site = tmp_path / "docs", tmp_path / "site"
    docs.mkdir()
    (docs / "page.md").write_text("# T\n\nMark it with `;--8<-- [start:name]`.\n", encoding="utf-8")
    config = {"site_name": "S", "markdown_extensions": [{"pymdownx.snippets": {"base_path": [str(tmp_path)]}}]}
    (twin,) = write_twins(docs, site, ("page.md",), config)
    assert "Mark it with `--8<-- [start:name]`." in twin.text
    assert ";--8<--" not in (site / twin.twin).read_text(encoding="utf-8")
