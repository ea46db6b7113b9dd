"""`<!-- verified-install -->`: the home page's install line comes from pyproject.toml at build."""

from __future__ import annotations

import platform
import re
from importlib.metadata import version
from pathlib import Path

import pytest

from conftest import ROOT, BuiltSite
from verified_docs.errors import SourceError
from verified_docs.ledger import Ledger
from verified_docs.render.directive import find_directives
from verified_docs.render.install import Requirements, read_requirements, render_install

PROJECT = """[project]
name = "x"
requires-python = "{python}"
dependencies = [
    "jinja2>=3.1",
    "{pin}",
]
"""


def pyproject(tmp_path: Path, pin: str = "toolnexus==1.2.3", python: str = ">=3.12") -> Path:
    path = tmp_path / "pyproject.toml"
    path.write_text(PROJECT.format(pin=pin, python=python))
    return path


def directive(tmp_path: Path, indent: str = ""):
    page = tmp_path / "index.md"
    (d,) = find_directives(f"# Home\n\n{indent}<!-- verified-install -->\n", page)
    return d


def test_the_pin_and_the_python_requirement_are_read_from_pyproject(tmp_path: Path) -> None:
    assert read_requirements(pyproject(tmp_path)) == Requirements("1.2.3", "3.12 or newer")
    assert read_requirements(pyproject(tmp_path, python=">=3.11,<4")).python == ">=3.11,<4"


def test_the_line_names_the_pin_the_requirement_and_the_python_the_build_ran_on(tmp_path: Path) -> None:
    out = render_install(directive(tmp_path, "    "), pyproject(tmp_path), Ledger("1.2.3", "3.12.1", {}))
    assert out == (
        "    `pip install toolnexus==1.2.3`, on Python 3.12 or newer (this build ran on Python 3.12.1)."
        '<span data-vd-directive="install-3"></span>\n'
    )


@pytest.mark.parametrize(("pin", "found"), [("toolnexus>=0.21", "['toolnexus>=0.21']"), ("toolnexus", "['toolnexus']")])
def test_a_toolnexus_that_is_not_pinned_fails_at_its_line(tmp_path: Path, pin: str, found: str) -> None:
    path = pyproject(tmp_path, pin=pin)
    with pytest.raises(SourceError) as e:
        read_requirements(path)
    assert str(e.value) == (
        f"{path}:6: [project] dependencies must pin toolnexus exactly once as toolnexus==<release>; found {found}"
    )


def test_no_requires_python_fails_at_the_project_table(tmp_path: Path) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text('\n[project]\ndependencies = ["toolnexus==1.0.0"]\n')
    with pytest.raises(SourceError) as e:
        read_requirements(path)
    assert str(e.value) == f"{path}:2: [project] has no requires-python"


def test_a_pin_the_build_did_not_verify_with_fails_at_the_pin(tmp_path: Path) -> None:
    path = pyproject(tmp_path, pin="toolnexus==9.9.9")
    with pytest.raises(SourceError) as e:
        render_install(directive(tmp_path), path, Ledger("1.2.3", "3.12.1", {}))
    assert str(e.value) == (
        f"{path}:6: toolnexus==9.9.9 is pinned, but this build verified the examples with "
        "toolnexus 1.2.3\n    run `nox -s docs`, which installs the pinned release before verifying"
    )


def test_the_home_page_shows_the_installed_pin(built_site: BuiltSite) -> None:
    assert built_site.returncode == 0, built_site.output
    html = (built_site.site / "index.html").read_text(encoding="utf-8")
    text = (ROOT / "pyproject.toml").read_text()
    pinned = re.search(r'"toolnexus==([^"]+)"', text).group(1)
    at_least = re.search(r'requires-python = ">=([0-9.]+)"', text).group(1)
    assert pinned == version("toolnexus")
    assert (
        f"<code>pip install toolnexus=={pinned}</code>, on Python {at_least} or newer (this build ran on Python "
        f"{platform.python_version()})."
    ) in html
