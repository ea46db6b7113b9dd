"""The built site: strict build passes and every code block in it ran in this session."""
from __future__ import annotations

import pytest

from conftest import ROOT, BuiltSite, Verification
from verified_docs import ledger as ledger_mod
from verified_docs.guard import check_site


def test_strict_build_passes(built_site: BuiltSite) -> None:
    assert built_site.returncode == 0, built_site.output


@pytest.mark.guard
def test_every_code_block_in_the_site_ran(built_site: BuiltSite, verification: Verification,
                                          executed_fences: set[tuple[str, int]]) -> None:
    assert built_site.returncode == 0, built_site.output
    verified = ledger_mod.load(verification.ledger_path).verified_hashes()
    problems, checked = check_site(built_site.site, ROOT / "docs", verified, executed_fences)
    assert checked >= 5, f"only {checked} code blocks in the built site; is the hook rendering examples?"
    assert not problems, "\n".join(str(p) for p in problems)
