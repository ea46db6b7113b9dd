"""The record of claimed sentences: ``rules/claimed-sentences.json``, committed beside the pages.

A claim's quote proves only that some words stayed; the record holds the whole sentence it
backs, so that any edit of that sentence (a "never" inserted, a number changed, a clause
added) fails the build at the claim's ``page.md:line`` until ``nox -s confirm-claims`` checks
the claim's evidence again and records the new wording. A reviewer sees the change in the
record's diff.

*The sentence* is the claim's text (:attr:`~verified_docs.render.claim_parse.Claim.sentence`:
its paragraph from the previous claim, or the paragraph's start, up to the claim), as a reader
sees it (backticks and emphasis marks dropped, whitespace collapsed, so a reflow changes
nothing), from the start of the sentence that holds the quote's first word: a sentence starts
after ``.``, ``!`` or ``?`` and a space, before a capital letter, a backtick or a bracket.

Each entry is keyed by ``page`` and ``evidence | quote`` (with `` #2``, `` #3`` for the same
claim repeated on a page), so moving a paragraph or adding a claim elsewhere keeps every key.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from verified_docs.errors import Problem
from verified_docs.files import write_atomic
from verified_docs.render.claim_parse import Claim

RECORD_FILE = Path("rules") / "claimed-sentences.json"
CONFIRM_COMMAND = "nox -s confirm-claims"
# Where a new sentence starts: not after an abbreviation such as "e.g." or "i.e.".
_SENTENCE_START = re.compile(r"(?<=[.!?])(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\betc\.) (?=[A-Z`\[(*_\"'])")


def words(text: str) -> str:
    """Text as a reader sees it: no backticks or emphasis marks, one space between words."""
    return " ".join(re.sub(r"[`*]", "", text).split())


def claimed_sentence(claim: Claim) -> str:
    """The normalised sentence ``claim`` backs (see the module docstring); the whole text when
    the quote is not in it (the quote check reports that)."""
    plain = words(claim.sentence)
    at = plain.find(words(claim.quote))
    if at < 0:
        return plain
    starts = [m.end() for m in _SENTENCE_START.finditer(plain, 0, at + 1)]
    return plain[starts[-1] if starts else 0 :]


def claim_keys(claims: list[Claim]) -> list[str]:
    """One key per claim of a page, in order: ``evidence | quote``, numbered from the second
    claim with the same pair."""
    seen: dict[str, int] = {}
    keys = []
    for c in claims:
        key = f"{c.evidence} | {c.quote}"
        seen[key] = seen.get(key, 0) + 1
        keys.append(key if seen[key] == 1 else f"{key} #{seen[key]}")
    return keys


@dataclass
class SentenceRecord:
    """The record, as read from ``path`` (``{page: {key: sentence}}``), and what this render saw.

    ``confirm`` (the ``confirm-claims`` step) accepts a changed sentence and drops the entries no
    claim has any more; otherwise a changed sentence is a problem, a new one is recorded, and
    entries of claims gone are reported by :meth:`stale`. Pages are posix paths below ``docs/``."""

    path: Path
    recorded: dict[str, dict[str, str]]
    confirm: bool = False
    seen: dict[str, dict[str, str]] = field(default_factory=dict)

    @classmethod
    def open(cls, root: Path, *, confirm: bool = False) -> "SentenceRecord":
        """The record of the project at ``root`` (empty when it has none). Raises
        :class:`ValueError` naming the file when it is not such a JSON object."""
        path = Path(root) / RECORD_FILE
        data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        if not isinstance(data, dict) or not all(
            isinstance(v, dict) and all(isinstance(s, str) for s in v.values()) for v in data.values()
        ):
            raise ValueError(f"{path}: not a record of claimed sentences ({{page: {{claim: sentence}}}})")
        return cls(path, data, confirm)

    def check(self, page: str, claims: list[Claim]) -> list[Problem]:
        """The problems of ``page``'s ``claims`` (whose evidence held in this build): a sentence
        that differs from its record, unless confirming. Every claim is remembered as seen."""
        problems = []
        seen = self.seen.setdefault(page, {})
        for claim, key in zip(claims, claim_keys(claims), strict=True):
            now = seen[key] = claimed_sentence(claim)
            before = self.recorded.get(page, {}).get(key)
            if before is not None and before != now and not self.confirm:
                problems.append(
                    Problem(
                        claim.where,
                        "this claim's sentence changed since its evidence was confirmed",
                        (
                            f'recorded: "{before}"',
                            f'now:      "{now}"',
                            f"if the evidence still backs the new wording, run `{CONFIRM_COMMAND}` "
                            f"(it checks the evidence again) and commit {RECORD_FILE}",
                        ),
                    )
                )
        return problems

    def new(self) -> list[tuple[str, str]]:
        """(page, key) of each claim seen that the record does not hold yet."""
        return [(p, k) for p, keys in self.seen.items() for k in keys if k not in self.recorded.get(p, {})]

    def stale(self, pages: list[str]) -> list[tuple[str, str]]:
        """(page, key) of each entry no claim of the rendered ``pages`` has any more."""
        return [
            (p, k) for p in self.recorded for k in self.recorded[p] if k not in self.seen.get(p, {}) or p not in pages
        ]

    def save(self, pages: list[str]) -> bool:
        """Write the record (atomically) when it changes: new sentences added; when confirming,
        changed ones replaced and entries of claims gone dropped. Only the rendered ``pages``
        are touched otherwise. True when it was written."""
        if self.confirm:
            wanted = {p: dict(self.seen[p]) for p in pages if self.seen.get(p)}
        else:
            wanted = {p: dict(keys) for p, keys in self.recorded.items()}
            for page, key in self.new():
                wanted.setdefault(page, {})[key] = self.seen[page][key]
        if wanted == self.recorded:
            return False
        text = json.dumps(wanted, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        write_atomic(self.path, text.encode("utf-8"))
        self.recorded = wanted
        return True
