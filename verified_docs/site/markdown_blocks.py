"""CommonMark's block structure of a Markdown text, parsed once per text for every reader of it.

The twins (:mod:`verified_docs.site.twins`) are read by ``llms.txt``'s writer for their headings
and by their guard (:mod:`verified_docs.site.twin_guard`) for their code blocks and left-over
markup, on every build and on every save in the author loop; one memo serves both.
"""

from __future__ import annotations

from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

MEMO_SIZE = 256  # texts remembered: every twin of a site several times this one's 40-odd pages


@lru_cache(maxsize=MEMO_SIZE)
def block_tokens(text: str) -> tuple[Token, ...]:
    """CommonMark's block tokens of ``text`` (markdown-it). An ``inline`` token keeps its
    paragraph's or heading's text in ``content``, unparsed: parsing inline markup is most of the
    time a parse takes, and no reader here needs more than the text. Memoised by the text, so
    an unchanged twin costs no parse; the tokens are shared, so read them, never change them."""
    return tuple(MarkdownIt("commonmark").disable("inline").parse(text))
