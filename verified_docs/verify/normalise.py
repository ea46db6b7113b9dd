"""Replace values that change from run to run, so output and evidence compare stably.

Applied to both sides of every comparison (golden output, evidence strings); the golden file
itself keeps what the program really printed.
"""

from __future__ import annotations

import re

_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    # toolnexus' generated Request ids: pnd-<hex millis>-<counter>
    (re.compile(r"\bpnd-[0-9a-f]+-\d+\b"), "pnd-<id>"),
    # and the ids of the Requests it makes from MCP elicitations: elc-<hex millis>-<counter>
    (re.compile(r"\belc-[0-9a-f]+-\d+\b"), "elc-<id>"),
    (re.compile(r"\bsk-mock-[0-9a-f]+\b"), "sk-mock-<key>"),
    # random UUIDs, such as the A2A task ids toolnexus's server makes (uuid4)
    (re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"), "<uuid>"),
    (re.compile(r"\b(127\.0\.0\.1|localhost):\d+\b"), r"\1:<port>"),
    # a run's work folder: $TMPDIR/verified-docs-run-<x>/verified-docs-<y> (tmproot.py, verify.py),
    # or $TMPDIR/verified-docs-<y> outside a run's temporary root; whatever TMPDIR is
    # A match starts only after a space, quote, bracket, '=', ':' or ',' (or at the start), and a
    # path segment never holds one of those, so each character is scanned once: linear time even
    # on a 2 MB line of slashes.
    (
        re.compile(
            r"""(?<![^\s"'=:(\[,])(?:/[^/\s"'=:(\[,)\]]+)*/verified-docs-"""
            r"""(?:run-[^/\s"'=:(\[,)\]]+/verified-docs-)?[^/\s"'=:(\[,)\]]+"""
        ),
        "<workdir>",
    ),
    # durations such as 12ms, 0.25 s, 1.5s (whole seconds such as "1990s" are left alone)
    (re.compile(r"\b(?:\d+(?:\.\d+)?\s?ms|\d+\.\d+\s?s)\b"), "<duration>"),
)


def normalise(text: str) -> str:
    """``text`` with generated ids, UUIDs, ports, keys, temp dirs and durations replaced by placeholders."""
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    return text
