"""The pages' own Python fences, executed by pytest-markdown-docs.

In: a page of ``docs/``. Out: a ``PageRun``: the fences that ran and passed, the failures at
their page line, and the files the fences read (the key of the fence cache). ``run`` holds the
records; ``plugin`` is the pytest plugin that fills them; ``stage`` runs every page's fences
for the build, each page in a pytest process of its own, and remembers passes.
"""
