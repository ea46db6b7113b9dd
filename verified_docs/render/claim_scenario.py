"""Check a claim against a scenario's evidence (``<scenario>#<run>.<key>``): the key of the
run's ``expect`` it names, that run verified green in this build from the files as they are
now, and the claim's ``value`` (read as scenario.yaml is read) or ``contains`` held by it.
"""

from __future__ import annotations

import json
import re
from dataclasses import fields
from functools import lru_cache
from typing import Any

from verified_docs.errors import Location, Problem, SourceError
from verified_docs.ledger import CHANGED, DID_NOT_PASS, NOT_VERIFIED, SCENARIO_CHANGED
from verified_docs.render.anchors import evidence_anchor
from verified_docs.render.claim_context import (
    CHECK_MARK,
    Checked,
    Context,
    contradicted,
    link,
    points_at_nothing,
    valid_names,
)
from verified_docs.render.claim_parse import Claim
from verified_docs.scenario.load import find_scenario
from verified_docs.scenario.records import Expect, Run, Scenario

EVIDENCE_KEYS = tuple(f.name for f in fields(Expect) if f.name not in ("where", "lines"))


def _flow(value: Any) -> str:
    """``value`` written the way a claim's ``value`` is (YAML flow style)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, str) and (not value or re.search(r"[:#,\[\]{}\"'\n]|^\s|\s$", value)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _same(a: Any, b: Any) -> bool:
    # JSON text tells true from 1, which == does not.
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@lru_cache(maxsize=1)
def _yaml() -> Any:
    from ruamel.yaml import YAML

    return YAML(typ="rt")


def read_value(text: str) -> Any:
    """``text`` read as scenario.yaml values are (ruamel round-trip, then plain data).
    Raises ``ValueError`` when it is not YAML."""
    return json.loads(_read_json(text))


@lru_cache(maxsize=1024)
def _read_json(text: str) -> str:
    # Round-trip parsing is most of the claims' cost; a value repeated on the pages is read once.
    from ruamel.yaml.error import YAMLError

    try:
        return json.dumps(_yaml().load(text))
    except YAMLError as e:
        raise ValueError(str(e).splitlines()[0]) from None


def _run_of(scenario: Scenario, rest: str) -> Run | None:
    # Run names may hold dots: take the longest run name that the evidence starts with.
    runs = [r for r in scenario.runs if rest.startswith(r.name + ".")]
    return max(runs, key=lambda r: len(r.name)) if runs else None


def _stated(run: Run, path: str, where: Location) -> tuple[Any, str]:
    """The evidence at ``path`` (``key`` or ``key.sub...``) of ``run`` as plain data, with the
    YAML file:line that states it. Raises :class:`SourceError` at ``where`` when ``run`` has no
    such evidence key."""
    e = run.expect
    keys = [k for k in EVIDENCE_KEYS if k in e.lines or k == "exit_code"]  # exit code: always checked (0)
    head, *subs = path.split(".")
    if head not in keys:
        raise SourceError(
            Problem(
                where,
                f"claim points at nothing: run '{run.name}' has no evidence key '{path}'",
                valid_names(keys, f"keys of run '{run.name}'"),
            )
        )
    value = json.loads(json.dumps(getattr(e, head)))
    walked = head
    for sub in subs:
        if isinstance(value, dict) and sub in value:
            value = value[sub]
        elif isinstance(value, list) and sub.isdigit() and int(sub) < len(value):
            value = value[int(sub)]
        else:
            names = (
                [f"{walked}.{k}" for k in value]
                if isinstance(value, dict)
                else [f"{walked}.{i}" for i in range(len(value))]
                if isinstance(value, list)
                else []
            )
            raise SourceError(
                Problem(
                    where,
                    f"claim points at nothing: run '{run.name}' has no evidence key '{path}'",
                    valid_names(names, f"keys below '{walked}'"),
                )
            )
        walked += f".{sub}"
    return value, str(Location(e.where.path, e.line_of(head)))


def _scenario_and_run(claim: Claim, ctx: Context) -> tuple[Scenario, Run, str]:
    """The scenario and run ``claim.evidence`` names and the key path after them. Raises
    :class:`SourceError` at the claim when it names no scenario or no run of it."""
    name, _, rest = claim.evidence.partition("#")
    try:
        scenario = find_scenario(ctx.scenarios, name, claim.where)
    except SourceError as e:
        raise points_at_nothing(e) from None
    run = _run_of(scenario, rest)
    if run is None:
        raise SourceError(
            Problem(
                claim.where,
                f"claim points at nothing: scenario '{name}' has no run '{rest.split('.')[0]}'",
                valid_names([r.name for r in scenario.runs], "runs"),
            )
        )
    return scenario, run, rest[len(run.name) + 1 :]


def _check_verified(claim: Claim, scenario: Scenario, run: Run, ctx: Context) -> None:
    """Raises :class:`SourceError` at the claim when ``run`` backs no sentence in this build: a
    program of it did not pass, or it or the scenario changed after it was verified."""
    for program in run.programs.values():
        rel = program.path.resolve().relative_to(ctx.root.resolve()).as_posix()
        doubt = ctx.ledger.doubt(rel, program.path, run=run.name, scenario_file=scenario.folder / "scenario.yaml")
        if doubt in (NOT_VERIFIED, DID_NOT_PASS):
            why = f"run '{run.name}' ({rel}) did not pass in this build, so it backs no sentence"
        elif doubt == CHANGED:
            why = f"{rel} changed after it was verified; verify it again"
        elif doubt == SCENARIO_CHANGED:
            why = (
                f"{scenario.name}/scenario.yaml changed after it was verified, so its evidence was not "
                "checked; verify it again"
            )
        else:
            continue
        raise SourceError(Problem(claim.where, f"claim: {claim.evidence}: {why}"))


def _equals(claim: Claim, path: str, value: Any, yaml_at: str) -> str:
    """What the link says of ``value`` (the evidence at ``path``, stated at ``yaml_at``) when
    ``claim.value`` equals it. Raises :class:`SourceError` at the claim when it does not, or is
    not YAML."""
    head = f"claim: {claim.evidence}:"
    try:
        said = read_value(claim.value or "")
    except ValueError as e:
        raise SourceError(Problem(claim.where, f"{head} its value {claim.value!r} is not YAML: {e}")) from None
    if not _same(said, value):
        raise contradicted(
            claim.where,
            f"{head} the page says {claim.value}; the evidence checked in this build says {_flow(value)}",
            f"the page's value read as YAML: {_flow(said)}",
            f"stated at {yaml_at}",
        )
    return f"{path} is {_flow(value)}"


def _holds(value: Any, text: str) -> bool | None:
    """Whether ``value`` (a text, list or dict) holds ``text``; None for a value of no such kind.
    A list holds it as an item equal to it (read as YAML, or as it is) or as part of a text item."""
    if isinstance(value, str):
        return text in value
    if isinstance(value, list):
        try:
            item = read_value(text)
        except ValueError:
            item = text
        return any(_same(x, item) or _same(x, text) or (isinstance(x, str) and text in x) for x in value)
    if isinstance(value, dict):
        return text in value
    return None


def _contains(claim: Claim, path: str, value: Any, yaml_at: str) -> str:
    """What the link says of ``value`` (the evidence at ``path``, stated at ``yaml_at``) when it
    holds ``claim.contains``. Raises :class:`SourceError` at the claim when it does not, or is
    neither a list nor a text."""
    head, text = f"claim: {claim.evidence}:", claim.contains or ""
    holds = _holds(value, text)
    if holds is None:
        raise SourceError(
            Problem(
                claim.where, f"{head} contains= needs a list or a text, and this evidence is {_flow(value)}; use value="
            )
        )
    if not holds:
        raise contradicted(
            claim.where,
            f'{head} the page says it contains "{text}"; the evidence checked in this build is {_flow(value)}',
            f"stated at {yaml_at}",
        )
    return f"{path} includes {text}"


def check_scenario(claim: Claim, page: str, ctx: Context) -> Checked:
    """The link for a ``<scenario>#<run>.<key>`` claim on ``page`` (posix, below docs/), to the
    run's part of the evidence box (on ``page`` when it shows one). Raises :class:`SourceError`
    at the claim when it names nothing, the run is not verified in this build, the evidence
    says otherwise, or no page shows the scenario's evidence."""
    scenario, run, path = _scenario_and_run(claim, ctx)
    value, yaml_at = _stated(run, path, claim.where)
    _check_verified(claim, scenario, run, ctx)
    shown = (_equals if claim.value is not None else _contains)(claim, path, value, yaml_at)
    name = claim.evidence.partition("#")[0]
    target = ctx.site.evidence_pages.get(name, ())
    if not target:
        raise SourceError(
            Problem(
                claim.where,
                f"claim: {claim.evidence}: no page shows the evidence of {name}",
                (f'add <!-- verified-evidence scenario="{name}" --> to a page',),
            )
        )
    return Checked(
        claim,
        link(page, page if page in target else target[0], evidence_anchor(name, run.name)),
        CHECK_MARK,
        f"Checked in this build: {name}, run {run.name}: {shown}",
        f"Evidence checked in this build: {name}, run {run.name}, {path}",
    )
