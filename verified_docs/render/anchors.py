"""Stable HTML ids for what claims link to: a scenario's evidence box and each of its runs, a
row of the release matrix, an entry of the list of cited source lines; and for what code links
to: an entry of the API reference and each of its parameters or fields.

Kept apart from the renderers and from :mod:`verified_docs.render.claims` so both sides build the same id from the
same names. Ids are made of ``[a-z0-9-]`` only; ``--`` separates a scenario from its run.
"""

from __future__ import annotations

import hashlib
import re

_UNSAFE = re.compile(r"[^a-z0-9]+")


def slug(name: str) -> str:
    """``"suspension/several-suspensions"`` -> ``"suspension-several-suspensions"``."""
    return _UNSAFE.sub("-", name.lower()).strip("-")


def evidence_anchor(scenario: str, run: str | None = None) -> str:
    """Id of the evidence box of ``scenario`` or, with ``run``, of that run's part of it."""
    base = f"evidence-{slug(scenario)}"
    return f"{base}--{slug(run)}" if run is not None else base


def matrix_anchor(scenario: str) -> str:
    """Id of ``scenario``'s row in the release matrix table."""
    return f"since-{slug(scenario)}"


def source_anchor(file: str, contains: str) -> str:
    """Id of a cited source line: the file and a short hash of the cited text (not the line
    number, which moves between releases while the citation stays the same)."""
    digest = hashlib.sha256(f"{file}\0{contains}".encode("utf-8")).hexdigest()[:10]
    return f"source-{slug(file)}-{digest}"


def api_anchor(path: str, member: str | None = None) -> str:
    """Id of the API reference entry for the public ``path`` (``toolnexus.RunResult`` ->
    ``api-toolnexus-runresult``) or, with ``member``, of that parameter or field of it
    (``api-toolnexus-runresult--status``). Made from the path a program imports, not from the
    module that defines it, so a move inside the package keeps the id."""
    base = f"api-{slug(path)}"
    return f"{base}--{slug(member)}" if member is not None else base
