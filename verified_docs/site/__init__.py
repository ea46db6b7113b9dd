"""From rendered Markdown to the published ``site/``.

In: ``build/rendered/`` and its ``mkdocs.yml``. Out: HTML from MkDocs or Zensical
(``generator``), checked by the ``guard`` (every code block ran in this build, every directive
came out) and against the ``page_rules`` the HTML shows, then swapped into ``site/``
(``publish``), dated by the last commit (``reproducible``). ``mkdocs_hook`` lets a plain
``mkdocs build`` render pages too.
"""
