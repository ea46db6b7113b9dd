"""The generator stage: turn the rendered tree (:mod:`verified_docs.render.pages`) into HTML with MkDocs
(the default) or Zensical, strictly. Either reads the same generated ``mkdocs.yml``; neither
needs a hook, since every directive and claim is already rendered.

MkDocs runs in this process (a no-op rebuild should cost about a bare ``mkdocs build``, and an
extra interpreter start-up adds to it). Zensical runs ``zensical.build`` strictly, as
``zensical build --strict`` does, in a process of its own that the author loop keeps between
saves (:class:`ZensicalWorker`; its version is pinned once, in pyproject.toml's ``zensical`` extra);
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


def build(
    generator: str, config: Path, site_dir: Path, *, strict: bool = True, zensical: "ZensicalWorker | None" = None
) -> None:
    """Build ``config`` (a generated ``mkdocs.yml``, :func:`~verified_docs.render.pages.render_tree`) into
    ``site_dir`` (removed first; the folder the configuration names, which Zensical requires
    inside the configuration's folder) with ``generator``, one of :data:`GENERATORS`. Raises
    :class:`GeneratorFailed` on a warning (strict) or an error, :class:`ValueError` for an
    unknown generator. ``strict=False`` (with ``strict: false`` in the file, which Zensical
    also reads) only lets a test show that the guard alone catches a site built from
    unrendered pages; the build never uses it. ``zensical``: the kept Zensical to build with
    (the author loop's), else one started for this build."""
    if generator not in GENERATORS:
        raise ValueError(f"unknown generator {generator!r}; known: {', '.join(GENERATORS)}")
    shutil.rmtree(site_dir, ignore_errors=True)
    if generator == "mkdocs":
        _mkdocs(Path(config), Path(site_dir), strict)
    else:
        _zensical(Path(config), Path(site_dir), strict, zensical)
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
        # Raised through MkDocs, which logged the page it was reading just above. The render
        # stage reports a missing file or section at its line first (render/includes.py); this
        # is left for a page the render stage left to the generator's own snippets pass.
        raise GeneratorFailed(
            f"mkdocs build --strict failed: pymdownx.snippets: {e} (the page is named above)"
        ) from None
    finally:
        log.removeHandler(handler)


class ZensicalWorker:
    """Zensical in a process of its own that stays between builds
    (:mod:`~verified_docs.site.zensical_worker`), started on the first :meth:`build`. One per
    serve session; ``nox -s docs`` uses one for its one build. Not thread-safe."""

    def __init__(self, timeout_s: float = 600.0) -> None:
        self.timeout_s = timeout_s
        self._proc: subprocess.Popen | None = None
        self._asked = 0  # the id of the last request

    def build(self, config: Path, strict: bool = True) -> None:
        """Build ``config`` into the ``site_dir`` it names. Prints what Zensical printed to
        stderr; raises :class:`GeneratorFailed` when it failed, warned under ``strict``, did not
        answer within ``timeout_s``, or its process ended (it starts again on the next call)."""
        import json
        import selectors
        import tempfile

        proc = self._started()
        self._asked += 1
        with tempfile.NamedTemporaryFile(prefix="zensical-", suffix=".log") as out:
            request = {"config": str(Path(config).resolve()), "strict": strict, "output": out.name, "id": self._asked}
            assert proc.stdin is not None and proc.stdout is not None
            try:
                proc.stdin.write(json.dumps(request) + "\n")
                proc.stdin.flush()
                with selectors.DefaultSelector() as sel:
                    sel.register(proc.stdout, selectors.EVENT_READ)
                    answer = proc.stdout.readline() if sel.select(self.timeout_s) else None
            except BrokenPipeError:
                answer = ""
            printed = Path(out.name).read_text(encoding="utf-8", errors="replace").strip()
        if printed:
            print(printed, file=sys.stderr)
        if answer is None:
            self.close()
            raise GeneratorFailed(f"zensical build --strict did not finish in {self.timeout_s:.0f} s")
        if not answer:
            code = proc.wait()
            self.close()
            if code == 3:
                raise GeneratorFailed(
                    "zensical is not installed in this environment: pip install -e '.[zensical]' "
                    "(nox -s docs -- --generator zensical installs it)"
                )
            raise GeneratorFailed(f"zensical build --strict failed: its process ended (exit {code})")
        try:
            result = json.loads(answer)
            matches = result.get("id") == self._asked
        except (ValueError, AttributeError):
            matches = False
        if not matches:
            self.close()
            raise GeneratorFailed(
                f"zensical build: its process answered {answer.strip()[:200]!r}, not this build's result"
            )
        if result.get("ended"):
            self.close()
        if not result["ok"]:
            raise GeneratorFailed(f"zensical build --strict failed: {result['error']}")

    def _started(self) -> subprocess.Popen:
        if self._proc is None or self._proc.poll() is not None:
            self._proc = subprocess.Popen(
                [sys.executable, "-c", _WORKER_START], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
            )
        return self._proc

    def close(self) -> None:
        """Stop the process (it ends when its input closes; killed after 10 s)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(10)
        except (subprocess.TimeoutExpired, BrokenPipeError):
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()

    def __enter__(self) -> "ZensicalWorker":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# Exit 3 when Zensical is not installed, before reading any request.
_WORKER_START = (
    "import sys\n"
    "try:\n    import zensical  # noqa: F401\n"
    "except ModuleNotFoundError as e:\n"
    "    if e.name != 'zensical':\n        raise\n"
    "    print(e, file=sys.stderr); sys.exit(3)\n"
    "from verified_docs.site.zensical_worker import main\nsys.exit(main())\n"
)


def _zensical(config: Path, site_dir: Path, strict: bool, worker: ZensicalWorker | None = None) -> None:  # noqa: ARG001 (the configuration names it)
    if worker is not None:
        worker.build(config, strict)
        return
    with ZensicalWorker() as one:
        one.build(config, strict)


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
