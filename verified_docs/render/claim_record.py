"""The record of claimed sentences, ``rules/claimed-sentences.json``: each claim's whole
sentence as it was when its evidence was confirmed, so that editing the sentence fails the
build at the claim until ``nox -s confirm-claims`` checks its evidence again and records it.

**The sentence** of a claim is found in its paragraph (:attr:`Claim.paragraph
<verified_docs.render.claim_parse.Claim>`, the claim comments left out): the paragraph is cut
into sentences after a ``.``, ``!`` or ``?`` outside code (not that of "e.g." or "i.e.") that
is followed by white space and a capital, a digit or an opening mark (``(``, ``[``, a quote, a backtick or emphasis), a
table row also at each ``|`` between cells, and a heading, admonition or tab line is a
sentence of its own. The claim's sentence is the sentence (or the run of sentences, when the
quote spans a full stop) holding its ``quote`` closest before the claim, whole: a claim in the
middle of a sentence records the words after it too, up to the sentence's end.

**Normalised**, it is the words a reader sees (:func:`words`): a link reduced to its text,
no backticks or ``*`` marks, a list marker and a table cell's ``|`` dropped, white space
collapsed to one space. So a reflow of the paragraph changes nothing, and a changed word,
number or clause does.

The cut is a few regular expressions of our own, not a sentence tokenizer (pysbd, nltk): it
must know Markdown's code spans and table cells, and only has to be stable, not linguistic.
A cut too early only records less of the sentence.

**Keyed** by page (posix, below ``docs/``), then ``<evidence> | <quote>`` (the second claim
on a page with the same evidence and quote gets `` | 2``, and so on, in page order): moving a
paragraph or adding a claim elsewhere keeps every key. A claim whose key has no record but
whose page has a record, for the same evidence, of a claim that is gone counts as changed
(its quote was edited with its sentence).

What a render does with it depends on its mode (:data:`MODES`).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from verified_docs.errors import Problem, SourceError
from verified_docs.files import write_atomic
from verified_docs.render.claim_parse import Claim, masked_lines

RECORD_FILE = Path("rules") / "claimed-sentences.json"
CONFIRM = "nox -s confirm-claims"
# check: compare with the record, write nothing (a render from the last ledger, the MkDocs
# hook, the tests); record: the build outside CI, also recording each new claim's sentence;
# ci: the build under CI, where a sentence without a record fails (the record must be
# committed); confirm: `confirm-claims`, recording the sentence of every claim whose evidence held.
MODES = ("check", "record", "ci", "confirm")

_LINK = re.compile(r"!?\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])")
_MARKER = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
# A full stop (or ! ?) and what may close after it, then the white space before the next sentence.
_STOP = re.compile(r"[.!?][\"')\]*_`]*(\s+)")
_NEXT = re.compile(r"[A-Z0-9`(\"'\[*_]")
_ABBREVIATIONS = ("e.g.", "i.e.")  # a full stop that ends no sentence
_OWN_LINE = re.compile(r"^\s*(?:#{1,6}\s|!!!|\?\?\?|===)")


def words(text: str) -> str:
    """``text`` as a reader sees it: links reduced to their text, no backticks or emphasis
    marks, one space between words. Quotes are looked for in it, and sentences recorded as it."""
    return " ".join(re.sub(r"[`*]", "", _LINK.sub(r"\1", text)).split())


def mode_for_build() -> str:
    """The build's mode: ``ci`` under CI (any non-empty ``CI`` variable), else ``record``."""
    return "ci" if os.environ.get("CI") else "record"


def sentence_spans(paragraph: str) -> list[tuple[int, int]]:
    """The (start, end) offsets of each sentence of ``paragraph`` (see the module docstring).
    :mod:`~verified_docs.render.factual` cuts every paragraph of a page with it too."""
    masked = "\n".join(masked_lines(paragraph)).ljust(len(paragraph))
    cuts = {0, len(paragraph)}
    first_line = paragraph.split("\n", 1)[0]
    if _OWN_LINE.match(first_line):
        cuts.add(len(first_line))
    for m in _STOP.finditer(paragraph):
        if paragraph[max(0, m.start() - 3) : m.start() + 1] in _ABBREVIATIONS:
            continue
        if masked[m.start()] == paragraph[m.start()] and _NEXT.match(paragraph, m.end()):
            cuts.add(m.start(1))
    if paragraph.lstrip().startswith("|"):
        cuts |= {i for i, c in enumerate(masked) if c == "|"}
    ends = sorted(cuts)
    return list(zip(ends, ends[1:], strict=False))


def sentence_bounds(claim: Claim) -> tuple[int, int] | None:
    """The (start, end) offsets in ``claim.paragraph`` of the whole sentence (or run of
    sentences) holding its quote closest before the claim; None when no run of sentences there
    holds it."""
    text, (begin, end) = claim.paragraph, claim.at
    quote = words(claim.quote)
    spans = [(s, e) for s, e in sentence_spans(text) if s < end and e > begin]
    for i in range(len(spans) - 1, -1, -1):
        for j in range(i, len(spans)):
            if quote in words(text[max(spans[i][0], begin) : min(spans[j][1], end)]):
                return spans[i][0], spans[j][1]
    return None


def sentence(claim: Claim) -> str:
    """The normalised whole sentence of ``claim`` (see the module docstring); the words before
    the claim when its quote is in no run of sentences there."""
    bounds = sentence_bounds(claim)
    if bounds is None:
        return words(claim.paragraph[claim.at[0] : claim.at[1]])
    return words(_MARKER.sub("", claim.paragraph[bounds[0] : bounds[1]])).strip("| ")


def keys(claims: list[Claim]) -> list[str]:
    """Each claim's key on its page (``claims`` are one page's, in order)."""
    seen: dict[str, int] = {}
    out = []
    for c in claims:
        key = f"{c.evidence} | {c.quote}"
        seen[key] = seen.get(key, 0) + 1
        out.append(key if seen[key] == 1 else f"{key} | {seen[key]}")
    return out


@dataclass
class Sentences:
    """The record at ``path`` as loaded (``recorded``: page -> key -> sentence), what a render
    in ``mode`` makes of it (``current``), and the keys each page's claims had (``seen``)."""

    path: Path
    mode: str
    recorded: dict[str, dict[str, str]]
    current: dict[str, dict[str, str]] = field(default_factory=dict)
    seen: dict[str, set[str]] = field(default_factory=dict)
    added: int = 0

    @classmethod
    def load(cls, root: Path, mode: str = "check") -> "Sentences":
        """The record of the project at ``root`` (empty when there is none). Raises
        :class:`SourceError` at the file when it is not such a record, ``ValueError`` for a
        mode not in :data:`MODES`."""
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; known: {', '.join(MODES)}")
        path = Path(root) / RECORD_FILE
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            data = {}
        except json.JSONDecodeError as e:
            raise SourceError.at(
                path, e.lineno, f"not readable as JSON: {e.msg}", f"fix it, or run {CONFIRM}"
            ) from None
        if not isinstance(data, dict) or not all(
            isinstance(v, dict) and all(isinstance(s, str) for s in v.values()) for v in data.values()
        ):
            raise SourceError.at(path, 0, "expected {page: {claim key: sentence}}", f"run {CONFIRM}")
        return cls(path, mode, data, {page: dict(v) for page, v in data.items()})

    def check(self, page: str, claims: list[Claim], held: list[bool]) -> list[Problem]:
        """The problems of ``page``'s ``claims`` (all of them, in order; ``held[i]`` when the
        evidence of ``claims[i]`` held in this build): a sentence that differs from its record,
        or (mode ``ci``) has none. Records what the mode records, in :attr:`current`."""
        page_keys = keys(claims)
        self.seen[page] = set(page_keys)
        recorded = self.recorded.get(page, {})
        gone = [k for k in recorded if k not in self.seen[page]]
        problems = []
        for claim, key, ok in zip(claims, page_keys, held, strict=True):
            now = sentence(claim) if ok else None
            if now is None or recorded.get(key) == now:
                continue
            if self.mode == "confirm":
                self.current.setdefault(page, {})[key] = now
                continue
            old = recorded.get(key)
            was = "was"
            if old is None:
                edited = next((k for k in gone if k.split(" | ", 1)[0] == claim.evidence), None)
                if edited is not None:
                    old, was = recorded[edited], f'was (quote "{edited.split(" | ", 2)[1]}")'
            if old is not None:
                problems.append(
                    Problem(
                        claim.where,
                        "claimed sentence changed since its evidence was confirmed",
                        (f'{was}: "{old}"', f'now: "{now}"', f"if it holds, check and record it: {CONFIRM} -- {page}"),
                    )
                )
            elif self.mode == "ci":
                problems.append(
                    Problem(
                        claim.where,
                        f"claimed sentence has no record in {RECORD_FILE.as_posix()}, which must be committed",
                        (f'sentence: "{now}"', f"record it with {CONFIRM} -- {page} and commit the file"),
                    )
                )
            elif self.mode == "record":
                self.current.setdefault(page, {})[key] = now
                self.added += 1
        return problems

    def stale(self, docs: Path) -> list[tuple[str, str]]:
        """(page, key) of each record whose claim is gone: from a page that was checked, or
        from a page no longer under ``docs``."""
        return [
            (page, key)
            for page, entries in sorted(self.recorded.items())
            if page in self.seen or not (Path(docs) / page).is_file()
            for key in sorted(entries)
            if key not in self.seen.get(page, ())
        ]

    def save(self, drop: Iterable[tuple[str, str]] = ()) -> int:
        """Write :attr:`current` without the records ``drop`` names (page, key), sorted, when it
        differs from the file (never in mode ``check`` or ``ci``). Returns how many records it
        added, changed or dropped (0: nothing written)."""
        if self.mode in ("check", "ci"):
            return 0
        for page, key in drop:
            self.current.get(page, {}).pop(key, None)
        data = {page: dict(sorted(v.items())) for page, v in sorted(self.current.items()) if v}
        before = {(page, k, s) for page, v in self.recorded.items() for k, s in v.items()}
        after = {(page, k, s) for page, v in data.items() for k, s in v.items()}
        changed = len({(page, k) for page, k, _ in before ^ after})
        if changed:
            write_atomic(self.path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        return changed


def stale_line(stale: list[tuple[str, str]]) -> str:
    """The render stage's warning about records whose claim is gone (a warning: they back no
    sentence, and ``confirm-claims`` drops them)."""
    pages = sorted({page for page, _ in stale})
    return (
        f"render: warning: {len(stale)} recorded sentence(s) in {RECORD_FILE.as_posix()} belong to no claim any more "
        f"({', '.join(pages[:3])}{', ...' if len(pages) > 3 else ''}); {CONFIRM} drops them"
    )
