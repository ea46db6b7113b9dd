"""The new-release alarm: which scenarios a toolnexus release changes, and what on the site rests on them.

``nox -s release-matrix -- --newest`` verifies every scenario on the newest toolnexus on PyPI
and on the pin (reports as :func:`~verified_docs.release.matrix.write_report` writes them); :func:`changes` compares
the two, scenario by scenario: one that passes on one release and fails on the other, or fails
on both with other problems, changed (a changed golden output or evidence makes a run fail, so
the verdicts carry both). :func:`citations` finds, for each scenario, the pages showing it and
the claims citing its evidence or its matrix row, so the table says what a reader would see
go wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from verified_docs.render.claim_parse import parse_claims
from verified_docs.render.directive import pages_by_scenario


@dataclass(frozen=True)
class Change:
    """One scenario whose verdict differs between two releases. ``passed_*`` is None when the
    scenario was not verified on that release; ``problems`` are the new release's, one line each."""

    scenario: str
    passed_pinned: bool | None
    passed_newest: bool | None
    problems: tuple[str, ...] = ()


def changes(pinned: dict, newest: dict) -> list[Change]:
    """Scenarios (sorted by name) whose verdict or problems differ between two reports
    (dicts as :func:`~verified_docs.release.matrix.read_report` returns them)."""
    out = []
    a, b = pinned["scenarios"], newest["scenarios"]
    pa, pb = pinned.get("problems", {}), newest.get("problems", {})
    for name in sorted(a.keys() | b.keys()):
        if a.get(name) != b.get(name) or (not b.get(name) and pa.get(name) != pb.get(name)):
            out.append(Change(name, a.get(name), b.get(name), tuple(pb.get(name, ()))))
    return out


def citations(docs: Path) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Scenario name -> pages (relative to ``docs``) showing it, and -> ``page:line,line`` per page
    for the claims citing its evidence (``<scenario>#...``) or its matrix row (``matrix:<scenario>``)."""
    claims: dict[str, dict[str, list[int]]] = {}
    for page in sorted(Path(docs).rglob("*.md")):
        rel = page.relative_to(docs).as_posix()
        for c in parse_claims(page.read_text(encoding="utf-8"), page):
            name = c.evidence.removeprefix("matrix:").split("#", 1)[0] if c.kind in ("scenario", "matrix") else None
            if name:
                lines = claims.setdefault(name, {}).setdefault(rel, [])
                if c.where.line not in lines:
                    lines.append(c.where.line)
    # One entry per page: "page.md:12,30,31".
    return pages_by_scenario(docs), {
        name: [f"{page}:{','.join(map(str, lines))}" for page, lines in by_page.items()]
        for name, by_page in claims.items()
    }


def _short(line: str, limit: int = 240) -> str:
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _verdict(passed: bool | None) -> str:
    return "not verified" if passed is None else ("passes" if passed else "fails")


def summary(
    found: list[Change], pinned: str, newest: str, pages: dict[str, list[str]], claims: dict[str, list[str]]
) -> str:
    """A Markdown report for the job summary: a headline, then one table row per changed
    scenario with its verdict on each release, the new release's first problem, and the pages
    and claims that rest on it."""
    if not found:
        return (
            f"### toolnexus {newest}: no scenario changed\n\nEvery scenario has the same verdict on {newest} "
            f"as on the pinned {pinned}.\n"
        )
    cell = lambda items: "<br>".join(f"`{x}`" for x in items) or "none"  # noqa: E731
    rows = [
        f"### toolnexus {newest}: {len(found)} scenario(s) changed against the pinned {pinned}",
        "",
        f"| scenario | on {pinned} | on {newest} | first problem on {newest} | pages | claims |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for c in found:
        problem = _short(c.problems[0] if c.problems else "").replace("|", "\\|")
        rows.append(
            f"| `{c.scenario}` | {_verdict(c.passed_pinned)} | {_verdict(c.passed_newest)} | {problem or '-'} "
            f"| {cell(pages.get(c.scenario, []))} | {cell(claims.get(c.scenario, []))} |"
        )
    return "\n".join(rows) + "\n"


def text(
    found: list[Change], pinned: str, newest: str, pages: dict[str, list[str]], claims: dict[str, list[str]]
) -> str:
    """The same report for a terminal: one block per changed scenario."""
    if not found:
        return f"release alarm: toolnexus {newest} changes no scenario against the pinned {pinned}"
    lines = [f"release alarm: toolnexus {newest} changes {len(found)} scenario(s) against the pinned {pinned}"]
    for c in found:
        lines.append(
            f"  {c.scenario}: {_verdict(c.passed_pinned)} on {pinned}, {_verdict(c.passed_newest)} on {newest}"
        )
        lines += [f"      {_short(p)}" for p in c.problems[:3]]
        lines.append(f"      pages: {', '.join(pages.get(c.scenario, [])) or 'none'}")
        lines.append(f"      claims: {', '.join(claims.get(c.scenario, [])) or 'none'}")
    return "\n".join(lines)
