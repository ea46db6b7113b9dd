"""The guard's checks of the Markdown twins and of llms.txt / llms-full.txt
(verified_docs/site/twin_guard.py), on the session's built site and on a copy of it tampered with."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from conftest import ROOT, BuiltSite, Verification
from verified_docs import ledger as ledger_mod
from verified_docs.site.llms_txt import LLMS_FULL, LLMS_TXT
from verified_docs.site.twin_guard import twin_problems

DOCS = ROOT / "docs"


@pytest.mark.guard
def test_every_twin_holds_what_its_page_holds_and_ran(
    built_site: BuiltSite, verification: Verification, executed_fences: set[tuple[str, int]]
) -> None:
    assert built_site.returncode == 0, built_site.output
    verified = ledger_mod.load(verification.ledger_path).verified_hashes()
    twins = sorted(built_site.site.rglob("index.html.md"))
    assert len(twins) == len(list(DOCS.rglob("*.md"))) >= 25
    assert twin_problems(built_site.site, DOCS, verified, executed_fences) == []


def _blocks(path: Path) -> list:
    return [t for t in MarkdownIt("commonmark").parse(path.read_text(encoding="utf-8")) if t.type == "fence"]


def test_a_tampered_twin_a_missing_one_and_a_stale_llms_full_fail_the_guard(
    built_site: BuiltSite, verification: Verification, tmp_path: Path
) -> None:
    assert built_site.returncode == 0, built_site.output
    site = tmp_path / "site"
    shutil.copytree(built_site.site, site)
    verified = ledger_mod.load(verification.ledger_path).verified_hashes()

    # A program edited after it ran.
    edited = site / "suspension" / "approval-gate" / "index.html.md"
    text = edited.read_text(encoding="utf-8")
    line = 'approver = ctx.answer.data["approver"]'
    assert text.count(line) == 3, "the test needs the approval gate's program, shown whole three times"
    edited.write_text(text.replace(line, 'approver = "nobody"', 1), encoding="utf-8")
    # An output that ran, but is not the one the page shows there.
    swapped = site / "suspension" / "log-in-first" / "index.html.md"
    outputs = [t for t in _blocks(swapped) if t.info == "text"]
    other = next(t for t in _blocks(edited) if t.info == "text")
    text = swapped.read_text(encoding="utf-8")
    swapped.write_text(text.replace(outputs[0].content, other.content, 1), encoding="utf-8")
    # A claim comment left as it was written.
    commented = site / "suspension" / "expiry" / "index.html.md"
    text = commented.read_text(encoding="utf-8")
    commented.write_text(text + '\nA sentence.<!-- claim evidence="x#y.z" value="1" quote="A sentence" -->\n')
    # A twin gone, and llms-full.txt one block short.
    (site / "suspension" / "pitfalls" / "index.html.md").unlink()
    full = site / LLMS_FULL
    first = _blocks(full)[0]
    full.write_text(full.read_text(encoding="utf-8").replace(first.content, "print('never ran')\n", 1))

    found = twin_problems(site, DOCS, verified, set())
    # No fence ran in this test: the twins of the pages with fences have a problem per fence.
    fence_pages = {site / "suspension" / f / "index.html.md" for f in ("", "question-tool", "expiry")}
    problems = [p for p in found if not ("not executed" in p.what and p.where.path in fence_pages)]
    rel = {p: p.relative_to(site).as_posix() for p in (edited, swapped, commented)}

    def at(path: Path, what: str) -> list[str]:
        return [p.what for p in problems if p.where.path == path and what in p.what]

    assert len(at(edited, f"of the twin {rel[edited]}: not a verified program")) == 1
    assert len(at(edited, f"the twin {rel[edited]} holds")) == 1  # and its blocks are not the page's
    assert len(at(swapped, f"the twin {rel[swapped]} holds")) == 1 and not at(swapped, "not a verified")
    assert len(at(commented, "holds the render stage's markup")) == 1
    assert at(DOCS / "suspension" / "pitfalls.md", "no Markdown twin") == [
        "no Markdown twin suspension/pitfalls/index.html.md beside suspension/pitfalls/index.html "
        "(the build writes it after the generator: verified_docs.site.llms_txt)"
    ]
    assert len(at(site / LLMS_TXT, "suspension/pitfalls/index.html.md, which the site lacks")) == 1
    assert len(at(full, "did not run in this build")) == 1
    assert len(at(full, "are not the twins'")) == 1
    assert len(problems) == 8, "\n".join(str(p) for p in problems)
