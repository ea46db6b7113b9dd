"""From rendered Markdown to the published ``site/``.

In: ``build/rendered/`` and its ``mkdocs.yml``. Out: HTML from MkDocs or Zensical
(``generator``), its programs' toolnexus names linked to the API reference (``code_links``),
each page's Markdown twin with ``llms.txt`` and ``llms-full.txt`` beside it (``twins``,
``llms_txt``), checked by the ``guard``, ``api_check`` and ``twin_guard`` (every code block ran
in this build, every directive came out, the twins hold what the pages hold) and against the
``page_rules`` the HTML shows, then swapped into ``site/`` (``publish``), dated by the last
commit (``reproducible``). ``mkdocs_hook`` lets a plain ``mkdocs build`` render pages too.
"""
