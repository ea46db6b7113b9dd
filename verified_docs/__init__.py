"""Machinery for a documentation site whose examples are executed before they are shown.

The verdict path, one package per stage, in the order data flows:

    scenario  what the author wrote: scenario.yaml, sections of programs, the SPEC rules
    run       one program run against the mock model, traced, with its line coverage
    verify    is what the run did what the scenario says (evidence, golden output, replies)
    ledger, cache (modules)  what passed in this build, and what need not run again
    render    docs/ + ledger -> plain Markdown (examples, evidence, claims, diagrams)
    fences    the pages' own Python fences, run by pytest-markdown-docs
    site      rendered Markdown -> HTML (MkDocs or Zensical), guarded, published to site/

Around it, calling it and never called by it: ``release`` (the same scenarios on other
toolnexus releases), ``serve`` (the author's and the reader's own runs) and ``tools``
(bench, soak, mutation). ``build`` is the orchestrator ``nox -s docs`` runs, through
``verify_stage`` (scenarios -> verdicts -> ledger, the one verify stage that ``verify``,
``serve`` and the bench call too) and ``fences.stage``; ``cli`` parses the command line;
``errors`` holds the one error shape and the root of the errors raised on purpose; ``files``
writes every generated file.
"""
