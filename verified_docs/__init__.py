"""Machinery for a documentation site whose examples are executed before they are shown.

The data flow is visible in the module names:

    scenario (snippets/<guide>/<scenario>/scenario.yaml + whole programs)
      -> mock_model (a scripted OpenAI-compatible server on 127.0.0.1)
      -> runner (one process per program, traced, with a timeout)
      -> evidence + golden (what must hold, what was printed)
      -> verify (a verdict per run) -> ledger (what ran green in this build)
      -> render (jinja2 tabs) -> mkdocs_hook (pages) -> guard (nothing unverified shipped)
"""
