"""Render ``<!-- verified-install -->``: the install line, read from ``pyproject.toml`` at build.

The toolnexus pin and the Python requirement live once, in ``pyproject.toml``; the page shows
them as they are there, so the install line cannot go stale. The pin must also be the release
this build verified with (the ledger records it): a page never offers a release that its
examples did not run on.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from verified_docs.errors import SourceError
from verified_docs.ledger import Ledger
from verified_docs.render.directive import Directive, marker

PIN = re.compile(r"^\s*toolnexus\s*==\s*(?P<version>[0-9A-Za-z.+!-]+)\s*$")
AT_LEAST = re.compile(r"^\s*>=\s*(?P<version>[0-9]+(?:\.[0-9]+)*)\s*$")


@dataclass(frozen=True)
class Requirements:
    """``toolnexus`` (the pinned release, e.g. ``0.21.0``) and ``python`` (as the reader
    reads it, e.g. ``3.11 or newer``), from a ``pyproject.toml``."""

    toolnexus: str
    python: str


def _line_of(text: str, needle: str) -> int:
    """1-based line of the first line of ``text`` holding ``needle``; 0 when none does."""
    return next((n for n, line in enumerate(text.splitlines(), 1) if needle in line), 0)


def read_requirements(pyproject: Path) -> Requirements:
    """The toolnexus pin (``toolnexus==X`` in ``[project] dependencies``) and
    ``requires-python`` of ``pyproject``.

    Raises :class:`SourceError` at the file (and line, where there is one) when the file is
    unreadable or not TOML, when toolnexus is not pinned with ``==`` exactly once, or when
    ``requires-python`` is missing."""
    try:
        text = pyproject.read_text(encoding="utf-8")
        project = tomllib.loads(text).get("project", {})
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise SourceError.at(pyproject, 0, f"cannot read the install requirements: {e}") from None
    deps = [d for d in project.get("dependencies", []) if re.match(r"^\s*toolnexus\b", d)]
    pins = [m for m in (PIN.match(d) for d in deps) if m]
    if len(deps) != 1 or len(pins) != 1:
        raise SourceError.at(
            pyproject,
            _line_of(text, "toolnexus") or _line_of(text, "dependencies"),
            f"[project] dependencies must pin toolnexus exactly once as toolnexus==<release>; found {deps or 'none'}",
        )
    python = project.get("requires-python")
    if not python:
        raise SourceError.at(pyproject, _line_of(text, "[project]"), "[project] has no requires-python")
    at_least = AT_LEAST.match(python)
    return Requirements(pins[0].group("version"), f"{at_least.group('version')} or newer" if at_least else python)


def render_install(directive: Directive, pyproject: Path, ledger: Ledger) -> str:
    """The install line as a Markdown paragraph: ``pip install toolnexus==<pin>``, the Python
    it needs, and the Python this build ran on (from ``ledger``), with the directive's marker.

    Raises :class:`SourceError` as :func:`read_requirements` does, and at the pin's line when
    this build verified another toolnexus release than the one pinned."""
    req = read_requirements(pyproject)
    if req.toolnexus != ledger.toolnexus:
        text = pyproject.read_text(encoding="utf-8")
        raise SourceError.at(
            pyproject,
            _line_of(text, f"toolnexus=={req.toolnexus}"),
            f"toolnexus=={req.toolnexus} is pinned, but this build verified the examples with "
            f"toolnexus {ledger.toolnexus}",
            "run `nox -s docs`, which installs the pinned release before verifying",
        )
    return (
        f"{directive.indent}`pip install toolnexus=={req.toolnexus}`, on Python {req.python} (this build ran "
        f"on Python {ledger.python}).<span {marker(directive)}></span>\n"
    )
