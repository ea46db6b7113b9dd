"""Turn a page's example directive into a pymdownx.tabbed block, one tab per verified language.

``resolve`` checks the directive against the scenarios and the ledger (failing with the page
and line); ``tabs`` renders the block with a jinja2 template. Code never passes through jinja:
the template emits pymdownx.snippets include lines, so the page holds exactly the file's bytes.
"""
