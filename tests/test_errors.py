"""Every error the machinery raises on purpose derives from one root, ``VerifiedDocsError``."""

from __future__ import annotations

import ast
import importlib

from conftest import ROOT
from verified_docs.errors import VerifiedDocsError

PACKAGE = ROOT / "verified_docs"


def exception_classes() -> list[tuple[str, str]]:
    """(module, class) of every class in the package whose name may be an error's."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "tracer" in path.parts:  # runs inside the snippets' own interpreters
            continue
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and node.name.endswith(("Error", "Failed", "Problem")):
                found.append((module, node.name))
    return found


def test_every_error_class_derives_from_the_root() -> None:
    classes = {f"{m}.{n}": getattr(importlib.import_module(m), n) for m, n in exception_classes()}
    errors = {name: cls for name, cls in classes.items() if issubclass(cls, BaseException)}
    assert len(errors) >= 9, sorted(classes)
    assert [name for name, cls in errors.items() if not issubclass(cls, VerifiedDocsError)] == []


def test_the_os_and_runtime_errors_stay_what_they_were() -> None:
    from verified_docs.run.forkserver import ForkServerError
    from verified_docs.run.netns import NetnsError

    assert issubclass(NetnsError, OSError) and issubclass(ForkServerError, RuntimeError)
    assert str(NetnsError("loopback would not come up")) == "loopback would not come up"
