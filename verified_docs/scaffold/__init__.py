"""A new example from templates: the author's first five minutes.

In: ``<guide>/<name>`` and a title. Out: a whole program, a minimal ``scenario.yaml`` and a
page (with its directives and one claim) written from ``templates/``, the page's line in
``mkdocs.yml``'s nav, and the program's golden output from a verified run. Nothing that exists
is overwritten.
"""
