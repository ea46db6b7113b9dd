"""Every scenario's checks kill at least 90% of the careless edits an author could make.

Mutants are verified the normal way (verified_docs.tools.mutate); results are kept by content in
build/cache/mutation, so an unchanged scenario is scored from its stored mutants.
"""

from __future__ import annotations

import os

import pytest

from conftest import ROOT, scenario_names
from verified_docs.scenario.load import discover_project
from verified_docs.tools.mutate import MUTATION_CACHE, THRESHOLD, check_scenario

SCENARIOS = {s.name: s for s in discover_project(ROOT)}


@pytest.mark.parametrize("name", scenario_names(), ids=str)
def test_scenario_kills_at_least_the_threshold_of_its_mutants(name: str) -> None:
    cache = None if os.environ.get("VERIFIED_DOCS_NO_MUTATION_CACHE") else ROOT / MUTATION_CACHE
    result = check_scenario(SCENARIOS[name], cache, jobs=os.cpu_count() or 1)
    assert not result.failures(THRESHOLD), "\n".join(result.failures(THRESHOLD))
