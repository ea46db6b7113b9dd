"""Whatever the generator: MkDocs and Zensical build the rendered tree into sites with the same
verified blocks on every page, the guard passes both, and a generator fed docs/ as written
(the render stage skipped) fails the guard at the page and line of the first directive."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, BuiltSite, Verification
from verified_docs import ledger as ledger_mod
from verified_docs.ledger import fingerprint
from verified_docs.render.directive import find_directives
from verified_docs.site.built_html import parse_page
from verified_docs.site.guard import (
    built_page,
    check_site,
    directive_problems,
    published_source_problems,
    unrendered_claims,
)
from verified_docs.site.page_rules import page_rule_problems
from verified_docs.site.twin_guard import twin_problems

DOCS = ROOT / "docs"


def verified_blocks(site: Path) -> dict[str, tuple[tuple[str, ...], frozenset[str]]]:
    """Built page (posix, below ``site``) -> (the fingerprints of its code blocks, sorted, each
    as often as it appears; the directive markers it carries): what the guard counts, page by page."""
    out = {}
    for page in sorted(site.rglob("*.html")):
        parsed = parse_page(page.read_text(encoding="utf-8"))
        out[page.relative_to(site).as_posix()] = (
            tuple(sorted(fingerprint(b) for b in parsed.blocks)),
            frozenset(value for value, _ in parsed.markers),
        )
    return out


def _guard(site: Path, ledger_path: Path, executed: set[tuple[str, int]]) -> tuple[list[str], int]:
    ledger = ledger_mod.load(ledger_path)
    problems, checked = check_site(site, DOCS, ledger.verified_hashes(), executed)
    problems += published_source_problems(site, ledger.passed_files())
    problems += directive_problems(site, DOCS)
    problems += unrendered_claims(site, DOCS)
    problems += page_rule_problems(site, DOCS)
    problems += twin_problems(site, DOCS, ledger.verified_hashes(), executed)
    return [str(p) for p in problems], checked


def test_zensical_builds_the_rendered_tree(zensical_site: BuiltSite) -> None:
    assert zensical_site.returncode == 0, zensical_site.output
    assert all(built_page(zensical_site.site, DOCS, md) for md in DOCS.rglob("*.md"))


@pytest.mark.guard
def test_the_guard_passes_the_zensical_site(
    zensical_site: BuiltSite, verification: Verification, executed_fences: set[tuple[str, int]]
) -> None:
    assert zensical_site.returncode == 0, zensical_site.output
    problems, checked = _guard(zensical_site.site, verification.ledger_path, executed_fences)
    assert checked >= 300 and problems == [], "\n".join(problems)


def test_mkdocs_and_zensical_show_the_same_verified_blocks_on_every_page(
    built_site: BuiltSite, zensical_site: BuiltSite
) -> None:
    assert built_site.returncode == 0, built_site.output
    assert zensical_site.returncode == 0, zensical_site.output
    mkdocs, zensical = verified_blocks(built_site.site), verified_blocks(zensical_site.site)
    pages = [
        built_page(built_site.site, DOCS, md).relative_to(built_site.site).as_posix()
        for md in sorted(DOCS.rglob("*.md"))
    ]
    assert sum(len(mkdocs[p][0]) for p in pages) >= 300 and sum(len(mkdocs[p][1]) for p in pages) >= 80
    differ = [
        f"{p}: MkDocs' {len(mkdocs[p][0])} blocks, Zensical's {len(zensical[p][0])}, "
        f"{len(set(mkdocs[p][0]) ^ set(zensical[p][0]))} in one only; markers in one only: "
        f"{sorted(mkdocs[p][1] ^ zensical[p][1])}"
        for p in pages
        if mkdocs[p] != zensical.get(p, ((), frozenset()))
    ]
    assert differ == [], "\n".join(differ)


@pytest.mark.parametrize("generator", ["mkdocs", "zensical"])
def test_a_generator_fed_docs_as_written_fails_the_guard_at_each_page_and_line(
    generator: str, built_site: BuiltSite, verification: Verification, tmp_path: Path
) -> None:
    # The rendered tree with every page put back as written: what a generator builds when the
    # render stage is skipped (a hook that never ran, as under Zensical before this stage).
    assert built_site.returncode == 0, built_site.output
    rendered = built_site.site.parent
    out = tmp_path / "raw"
    shutil.copytree(rendered, out, ignore=shutil.ignore_patterns("site", ".cache"))
    for md in DOCS.rglob("*.md"):
        shutil.copy(md, out / "docs" / md.relative_to(DOCS))
    # Not strict: both generators would also stop at the links to anchors only the render stage
    # makes, but a page without such a link would go through, and the guard must catch it alone.
    config = out / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    assert "\nstrict: true\n" in text
    config.write_text(text.replace("\nstrict: true\n", "\nstrict: false\n"), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "verified_docs.site.generator", generator, str(config), "--no-strict"],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr  # the generator itself sees nothing wrong
    problems, _ = _guard(out / "site", verification.ledger_path, set())
    expected = []
    for md in sorted(DOCS.rglob("*.md")):
        directives = find_directives(md.read_text(encoding="utf-8"), md)
        if directives:
            built = built_page(out / "site", DOCS, md).relative_to(out / "site").as_posix()
            expected.append(
                f"{md.relative_to(ROOT)}:{directives[0].where.line}: verified-{directives[0].kind} did not "
                f"come out in {built}: none of the page's {len(directives)} directive(s) did (no "
                "data-vd-directive marker at all: was the page built from docs/ as written, without the "
                "render stage?)"
            )
    assert len(expected) >= 25
    assert [p for p in problems if "did not come out" in p] == expected
