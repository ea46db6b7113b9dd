"""The author loop's incremental build (verified_docs/serve/incremental.py): after an edit, the
pages it renders and builds again, with the others kept, make the same site, byte for byte, as
every page rendered and built afresh; and it renders and builds no page that did not change."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.serving import NAME, PROGRAM, make_project
from verified_docs.scenario.load import discover_project
from verified_docs.serve.author_loop import AuthorLoop
from verified_docs.serve.incremental import IncrementalSite


def files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def fresh_site(project: Path, into: str, generator: str = "mkdocs") -> dict[str, bytes]:
    """Every page of ``project`` rendered and built by a new session, in a folder of its own."""
    site = IncrementalSite(project, generator)
    site.out = project / "build" / into
    try:
        built = site.build(project / "build" / f"{into}-served", discover_project(project))
    finally:
        site.close()
    assert built.full and built.built == 2
    return files(site.out / "site")


@pytest.mark.parametrize(
    "path, old, new, rendered, built",
    [
        # a heading: the page's table of contents and its search entries change
        ("docs/other.md", "No example on this page.", "## A new section\n\nNo example here.", 1, 1),
        # the title: every page's navigation shows it, so every page is rendered and built again
        ("docs/other.md", "# Other", "# Another", 2, 2),
        # a program the first page includes: that page only
        (PROGRAM.as_posix(), "nothing has been approved yet", "nothing is approved yet", 1, 1),
    ],
    ids=["heading", "title", "program"],
)
@pytest.mark.parametrize("generator", ["mkdocs", "zensical"])
def test_an_incremental_build_is_the_full_build(
    tmp_path: Path, path: str, old: str, new: str, rendered: int, built: int, generator: str
) -> None:
    # Under Zensical every page is built on every save (by a Zensical kept loaded), and each
    # page's code links are put back from the last save when what they follow from is unchanged.
    project = make_project(tmp_path / "project")
    loop = AuthorLoop(project, generator=generator)
    try:
        first = loop.cycle()
        assert first.ok, first.report
        assert (first.pages_rendered, first.pages_built) == (2, 2)
        unchanged = loop.cycle()
        whole = 2 if generator == "zensical" else 0  # Zensical builds every page, from its cache
        assert unchanged.ok and (unchanged.pages_rendered, unchanged.pages_built) == (0, whole), "nothing changed"
        edited = project / path
        text = edited.read_text(encoding="utf-8")
        assert text.count(old) == 1
        edited.write_text(text.replace(old, new), encoding="utf-8")
        after = loop.cycle()
        assert after.ok, after.report
        assert (after.pages_rendered, after.pages_built) == (rendered, whole or built)
        if path == PROGRAM.as_posix():
            assert list(after.reverified) == [NAME]
        served = files(project / "build" / "serve" / "site")
    finally:
        loop.site.close()
    fresh = fresh_site(project, "fresh", generator)
    assert served.keys() == fresh.keys()
    differ = sorted(k for k in served if served[k] != fresh[k])
    assert differ == [], "the served site differs from a full build of the same files"


def test_under_zensical_the_kept_twins_survive_its_clean_build(tmp_path: Path) -> None:
    # Zensical builds every page on every save, into a cleaned folder: the twins of the pages
    # that did not change are kept from the last build and must be written back.
    project = make_project(tmp_path / "project")
    loop = AuthorLoop(project, generator="zensical")
    try:
        assert loop.cycle().ok
        other = project / "docs" / "other.md"
        other.write_text(other.read_text(encoding="utf-8").replace("No example", "Still no example"), encoding="utf-8")
        after = loop.cycle()
        assert after.ok, after.report
        assert (after.pages_rendered, after.pages_built) == (1, 2), "one page rendered, Zensical builds both"
        served = project / "build" / "serve" / "site"
        assert "Still no example" in (served / "other" / "index.html.md").read_text(encoding="utf-8")
        assert (served / "index.html.md").is_file(), "the unchanged page's twin is gone"
    finally:
        loop.site.close()
    fresh = fresh_site(project, "fresh", "zensical")
    twins = {k: v for k, v in files(served).items() if k.endswith(".md") or k.startswith("llms")}
    assert twins == {k: v for k, v in fresh.items() if k.endswith(".md") or k.startswith("llms")}


TRICKY = """# Site

> head

```python
print("a")

# not a heading: inside a fence

x = 1
```

# First

<!--
# not a heading: inside a comment

-->

    indented code

# Second

- a list

  ```
  # in a list's fence

  ```

~~~~
```
# inside a tilde fence
````
~~~~

<pre>

# inside pre

</pre>

# Third
"""


@pytest.mark.parametrize("case", ["tricky", "built"])
def test_llms_full_parsed_in_parts_gives_the_blocks_of_a_whole_parse(case: str, request) -> None:
    from verified_docs.site.markdown_blocks import block_tokens
    from verified_docs.site.twin_guard import _code, code_blocks_in_parts, part_starts

    if case == "tricky":
        text = TRICKY
        assert [text.split("\n")[i] for i in part_starts(text.split("\n"))] == [
            "# Site",
            "# First",
            "# Second",
            "# Third",
        ]
    else:
        site = request.getfixturevalue("built_site")  # the whole site, as the build makes it
        assert site.returncode == 0, site.output[-3000:]
        text = (site.site / "llms-full.txt").read_text(encoding="utf-8")
        assert len(part_starts(text.split("\n"))) > 10, "a part per twin"
    assert code_blocks_in_parts(text) == _code(block_tokens(text))


def test_under_zensical_a_pages_code_links_are_put_back_only_while_what_they_follow_from_holds(tmp_path: Path) -> None:
    """Zensical writes every page on every save; the loop puts a page's linked HTML back while
    its digest, the HTML Zensical wrote and the pages holding API entries are unchanged, and
    leaves the page to the linker otherwise."""
    from types import SimpleNamespace

    site = tmp_path / "site"
    (site / "a").mkdir(parents=True)
    (site / "api").mkdir()
    tree = SimpleNamespace(site_dir=site)
    loop = IncrementalSite(tmp_path, "zensical")
    page, api, missing = site / "a" / "index.html", site / "api" / "index.html", site / "404.html"

    def save(digests: dict[str, str], generated: dict[Path, str]) -> set[Path]:
        for path, text in generated.items():
            path.write_text(text, encoding="utf-8")  # what Zensical wrote
        left = loop._kept_links(tree, digests)
        for path in left:  # the linker's work
            path.write_text(path.read_text(encoding="utf-8").replace("Answer", "<a>Answer</a>"), encoding="utf-8")
        loop._keep_links(tree, digests, left)
        return left

    digests = {"a.md": "d1", "api.md": "d2"}
    generated = {page: "Answer", api: '<p data-vd-api="x" id="x">', missing: "none"}
    assert save(digests, generated) == {page, api, missing}, "the first save links every page"
    assert save(digests, generated) == {missing}, "nothing changed: a and api put back, 404 has no digest"
    assert page.read_text(encoding="utf-8") == "<a>Answer</a>"
    assert save({**digests, "a.md": "d1'"}, generated) == {page, missing}, "a's inputs changed"
    assert save(digests, {**generated, page: "Answer again"}) == {page, missing}, "Zensical wrote other HTML for a"
    moved = {**generated, api: '<p data-vd-api="x" id="y">'}
    assert save(digests, moved) == {page, api, missing}, "the API entries moved: every page is linked again"
