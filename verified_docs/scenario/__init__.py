"""What the author wrote, read and checked before anything runs.

In: ``snippets/<guide>/<scenario>/scenario.yaml`` (validated against ``schema.json``), the
programs' section markers, and ``rules/spec-10.yaml``. Out: frozen records (``Scenario``,
``Run``, ``Expect``, ``Section``, ``Rule``) that remember their file and line, or a
``SourceError`` at the line that is wrong.
"""
