"""The render stage: ``docs/`` plus this build's ledger become plain Markdown.

In: the pages, their directives and claims, the ledger, the scenarios, the release matrix,
``rules/claimed-sentences.json`` and the installed toolnexus (read by griffe for the API reference).
Out: ``build/rendered/`` (every directive and claim rendered, the verified programs, the Mermaid
script) and a generated ``mkdocs.yml``, for any Python-Markdown site generator; in the build and
``confirm-claims``, the claimed sentences recorded. ``pages`` runs the stage; code never passes
through jinja2: blocks are pymdownx.snippets include lines.
"""
