"""The generator stage: turn the rendered tree (:mod:`verified_docs.render.pages`) into HTML with MkDocs
(the default) or Zensical, strictly. Either reads the same generated ``mkdocs.yml``; neither
needs a hook, since every directive and claim is already rendered.

MkDocs runs in this process (a no-op rebuild should cost about a bare ``mkdocs build``, and an
extra interpreter start-up adds to it). Zensical runs as ``python -m zensical build --strict``
in a process of its own (its version is pinned once, in pyproject.toml's ``zensical`` extra);
it needs ``docs_dir`` and ``site_dir`` inside the folder of its configuration file, given as
relative paths (0.0.73 panics on absolute ones), which the generated configuration does.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
from pathlib import Path

from verified_docs.errors import VerifiedDocsError

GENERATORS = ("mkdocs", "zensical")
DEFAULT = "mkdocs"


class GeneratorFailed(VerifiedDocsError):
    """The generator stopped or warned under ``--strict``; the message says which and why."""


def build(generator: str, config: Path, site_dir: Path, *, strict: bool = True) -> None:
    """Build ``config`` (a generated ``mkdocs.yml``, :func:`~verified_docs.render.pages.render_tree`) into
    ``site_dir`` (removed first; the folder the configuration names, which Zensical requires
    inside the configuration's folder) with ``generator``, one of :data:`GENERATORS`. Raises
    :class:`GeneratorFailed` on a warning (strict) or an error, :class:`ValueError` for an
    unknown generator. ``strict=False`` (with ``strict: false`` in the file, which Zensical
    also reads) only lets a test show that the guard alone catches a site built from
    unrendered pages; the build never uses it."""
    if generator not in GENERATORS:
        raise ValueError(f"unknown generator {generator!r}; known: {', '.join(GENERATORS)}")
    shutil.rmtree(site_dir, ignore_errors=True)
    (_mkdocs if generator == "mkdocs" else _zensical)(Path(config), Path(site_dir), strict)
    if not Path(site_dir).is_dir():
        raise GeneratorFailed(f"{generator} reported success but wrote no site into {site_dir}")


def _mkdocs(config: Path, site_dir: Path, strict: bool) -> None:
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException
    from pymdownx.snippets import SnippetMissingError

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    log = logging.getLogger("mkdocs")
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    try:
        loaded = load_config(str(config), strict=strict, site_dir=str(site_dir))
        loaded.plugins.on_startup(command="build", dirty=False)
        try:
            mkdocs_build(loaded)
        finally:
            loaded.plugins.on_shutdown()
    except MkDocsException as e:
        raise GeneratorFailed(f"mkdocs build --strict failed: {e}") from None
    except SnippetMissingError as e:
        # Raised through MkDocs, which logged the page it was reading just above; the render
        # stage catches a missing file at its line first (render/includes.py), not a missing section.
        raise GeneratorFailed(
            f"mkdocs build --strict failed: pymdownx.snippets: {e} (the page is named above)"
        ) from None
    finally:
        log.removeHandler(handler)


def _zensical(config: Path, site_dir: Path, strict: bool) -> None:  # noqa: ARG001 (the configuration names it)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "zensical", "build", *(["--strict"] if strict else []), "-f", str(config)],
            cwd=config.parent,
            capture_output=True,
            text=True,
            timeout=600,
        )
    except subprocess.TimeoutExpired:
        raise GeneratorFailed("zensical build --strict did not finish in 600 s") from None
    output = (done.stdout + done.stderr).strip()
    if output:
        print(output, file=sys.stderr)
    if done.returncode != 0:
        if "No module named zensical" in output:
            raise GeneratorFailed(
                "zensical is not installed in this environment: pip install -e '.[zensical]' "
                "(nox -s docs -- --generator zensical installs it)"
            )
        raise GeneratorFailed(f"zensical build --strict failed (exit {done.returncode})")


def main(argv: list[str] | None = None) -> int:
    """``python -m verified_docs.site.generator {mkdocs,zensical} CONFIG``: build a configuration
    the render stage generated into the ``site_dir`` it names, and nothing else (no render,
    no guard, no publish). Exit 0, or 1 when the generator failed."""
    import argparse

    from verified_docs.render.pages import load_config

    parser = argparse.ArgumentParser(
        prog="python -m verified_docs.site.generator", description=(main.__doc__ or "").partition("\n")[0]
    )
    parser.add_argument("generator", choices=GENERATORS)
    parser.add_argument("config", type=Path)
    parser.add_argument("--no-strict", action="store_true", help="do not stop on warnings (for tests of the guard)")
    args = parser.parse_args(argv)
    config = args.config.resolve()
    try:
        build(
            args.generator,
            config,
            config.parent / str(load_config(config).get("site_dir", "site")),
            strict=not args.no_strict,
        )
    except GeneratorFailed as e:
        print(e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
