"""The author loop's HTTP server: serves the last site that passed, reloads open pages after
every verification cycle, and puts a failed cycle's report on every page it serves.

Generator-independent: it serves a folder of built HTML and knows nothing of MkDocs or
Zensical. What it adds to each HTML page is done by two pure ``str -> str`` functions,
:func:`with_reload` and :func:`with_banner`.

Why our own server rather than MkDocs' livereload server (the well-kept one at hand): it can
only reload, with nowhere to put a failure on every page, and it would tie the preview to
MkDocs while the build's generator is a choice (the loop itself builds with MkDocs today).
What we need on top of ``http.server`` is a long poll and two insertions, below.
"""

from __future__ import annotations

import functools
import html
import http.server
import json
import re
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RELOAD_PATH = "/.verified-docs/reload"
STATE_PATH = "/.verified-docs/state"
BANNER_ID = "vd-serve-banner"
# A reload request is answered at the latest after this, so proxies and browsers never time out.
POLL_S = 25.0
# A page asked for while a cycle runs waits for it (the files may have changed under the page),
# at most this long; then it is served with the banner saying verification is still running.
BUSY_WAIT_S = 300.0

# Long-polls RELOAD_PATH with the epoch the page was served at, and reloads once it moved on.
# Once per document: Material's instant navigation may run a fetched page's scripts again.
_RELOAD_JS = """<script>(function () {
  if (window.vdServeEpoch !== undefined) return;
  var epoch = window.vdServeEpoch = %d;
  function poll() {
    fetch("%s?epoch=" + epoch, {cache: "no-store"})
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (t) { if (Number(t) > epoch) location.reload(); else poll(); })
      .catch(function () { setTimeout(poll, 1000); });
  }
  poll();
})();</script>"""

# Inline styles: the banner must show whatever the site's own CSS does (or failed to build).
_BANNER = (
    '<div id="%s" role="alert" style="position:sticky;top:0;z-index:10000;margin:0;'
    "padding:.8rem 1rem;background:#8b0000;color:#fff;font:15px/1.4 system-ui,sans-serif;"
    'max-height:60vh;overflow:auto;border-bottom:4px solid #ffd54f">'
    '<p style="margin:0 0 .5rem"><strong>Not verified.</strong> %s</p>'
    '<pre style="margin:0;padding:.5rem;background:#3b0000;color:#fff;white-space:pre-wrap;'
    'font:13px/1.35 ui-monospace,monospace">%s</pre></div>'
)


def with_reload(page: str, epoch: int) -> str:
    """``page`` (an HTML document) with the reload script before its last ``</body>`` (or at
    its end): the page reloads once the server's epoch is past ``epoch``."""
    script = _RELOAD_JS % (epoch, RELOAD_PATH)
    at = page.rfind("</body>")
    return page + script if at < 0 else page[:at] + script + page[at:]


def with_banner(page: str, report: str, headline: str) -> str:
    """``page`` with a banner right after its ``<body>`` tag (or at its start) saying
    ``headline`` (plain text) above ``report`` (plain text, shown preformatted)."""
    banner = _BANNER % (BANNER_ID, html.escape(headline), html.escape(report))
    body = re.search(r"<body\b[^>]*>", page, re.I)
    return banner + page if body is None else page[: body.end()] + banner + page[body.end() :]


def report_page(report: str, headline: str, epoch: int) -> str:
    """A page of its own for the report, served where no page that passed exists yet."""
    doc = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not verified</title></head>'
        "<body></body></html>"
    )
    return with_reload(with_banner(doc, report, headline), epoch)


@dataclass(frozen=True)
class Outcome:
    """One verification cycle: ``ok`` when every check passed and the served site was replaced;
    else ``report`` is what failed, as printed (``file:line: what`` lines). ``reverified``:
    seconds each scenario that ran this cycle took (the others were answered from the result
    cache); ``verify_s``, ``render_s``, ``total_s``: wall seconds of the cycle's parts;
    ``pages_rendered`` and ``pages_built``: the pages the render stage and the generator made
    again (:mod:`~verified_docs.serve.incremental`; the others were kept); ``render_cpu_s``:
    CPU seconds the serve process spent building them (render, generator, guard, copy), which
    other processes' load does not stretch as it stretches wall time."""

    ok: bool
    report: str = ""
    reverified: dict[str, float] = field(default_factory=dict)
    verify_s: float = 0.0
    render_s: float = 0.0
    total_s: float = 0.0
    finished: str = ""  # local wall clock, HH:MM:SS
    pages_rendered: int = 0
    pages_built: int = 0
    render_cpu_s: float = 0.0


class LoopState:
    """What the server shows, shared between the cycle (one thread) and the requests: the
    epoch (one more per finished cycle), whether a cycle is running, the last outcome and when
    the served site last passed. Thread-safe."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self.epoch = 0
        self.busy = False
        self.outcome: Outcome | None = None
        self.passed_at: str | None = None

    def begin(self) -> None:
        with self._cond:
            self.busy = True

    def end(self, outcome: Outcome) -> int:
        """Record ``outcome``, wake every waiting page; returns the new epoch."""
        with self._cond:
            self.busy, self.outcome = False, outcome
            if outcome.ok:
                self.passed_at = outcome.finished
            self.epoch += 1
            self._cond.notify_all()
            return self.epoch

    def wait_idle(self, timeout: float) -> bool:
        """Block while a cycle runs (at most ``timeout`` s); False when it is still running."""
        with self._cond:
            return self._cond.wait_for(lambda: not self.busy, timeout)

    def wait_newer(self, epoch: int, timeout: float) -> int:
        """The epoch once it is past ``epoch``, or the current one after ``timeout`` s."""
        with self._cond:
            self._cond.wait_for(lambda: self.epoch > epoch, timeout)
            return self.epoch

    def snapshot(self) -> dict:
        """JSON-ready: ``epoch``, ``busy``, ``ok`` (None before the first cycle), ``report``,
        ``reverified``, ``verify_s``, ``render_s``, ``total_s``, ``pages_rendered``,
        ``pages_built``, ``render_cpu_s``, ``passed_at``."""
        with self._cond:
            o = self.outcome
            return {
                "epoch": self.epoch,
                "busy": self.busy,
                "ok": None if o is None else o.ok,
                "report": o.report if o else "",
                "reverified": dict(o.reverified) if o else {},
                "verify_s": o.verify_s if o else 0.0,
                "render_s": o.render_s if o else 0.0,
                "total_s": o.total_s if o else 0.0,
                "pages_rendered": o.pages_rendered if o else 0,
                "pages_built": o.pages_built if o else 0,
                "render_cpu_s": o.render_cpu_s if o else 0.0,
                "passed_at": self.passed_at,
            }

    def headline(self) -> str | None:
        """The banner's words while the served site is not what was saved, else None."""
        with self._cond:
            if self.busy and self.outcome is None:
                return "The first verification is still running; nothing has passed yet."
            if self.outcome is None or self.outcome.ok:
                return "Verification is still running after this page was asked for." if self.busy else None
            base = (
                f"this page is the last build that passed ({self.passed_at}), not your files as saved"
                if self.passed_at
                else "no build has passed since the server started"
            )
            return (
                f"The last save failed verification at {self.outcome.finished}; {base}. "
                "Fix what the report names and save: pages reload when it is green again."
            )

    def report(self) -> str:
        with self._cond:
            return self.outcome.report if self.outcome and not self.outcome.ok else ""


def make_server(site: Path, state: LoopState, host: str, port: int) -> http.server.ThreadingHTTPServer:
    """A server (not started) for ``site`` on ``host:port`` (``port`` 0: a free one; read it
    from ``server.server_address``). Raises ``OSError`` when the address is taken."""
    # Its request threads are daemons: an open page's long poll does not keep the process alive.
    return _Server((host, port), functools.partial(_Handler, site=Path(site), state=state))


def _epoch_asked(query: str) -> int:
    """The ``epoch`` of a reload request's query string; -1 when it is missing or no number."""
    try:
        return int(urllib.parse.parse_qs(query).get("epoch", ["-1"])[0])
    except ValueError:
        return -1


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves ``site`` as the base class does, answers the reload long poll and the state, and
    adds the reload script and, while ``state`` has a headline, the banner to every page."""

    def __init__(self, *args: Any, site: Path, state: LoopState, **kwargs: Any) -> None:
        self.site, self.state = site, state  # before the base class, which handles the request
        super().__init__(*args, directory=str(site), **kwargs)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
        pass  # a request log would bury the verification reports

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        url = urllib.parse.urlsplit(self.path)
        if url.path == RELOAD_PATH:
            return self._send(str(self.state.wait_newer(_epoch_asked(url.query), POLL_S)).encode(), "text/plain")
        if url.path == STATE_PATH:
            return self._send(json.dumps(self.state.snapshot()).encode(), "application/json")
        self.state.wait_idle(BUSY_WAIT_S)
        path = self._page_path(url.path)
        if path is None:
            return super().do_GET()
        self._send_page(path)

    def _page_path(self, url_path: str) -> Path | None:
        """The HTML file ``url_path`` asks for (it may not exist), or None for what the base
        class serves as it is (another file, or a folder without its '/', which it redirects)."""
        path = Path(self.translate_path(url_path))
        if path.is_dir():
            if not url_path.endswith("/"):
                return None
            path = path / "index.html"
        # A missing page (no file, and a folder-like or .html path) gets the 404 page, banner included.
        if path.suffix != ".html" and (path.exists() or not (url_path.endswith("/") or not path.suffix)):
            return None
        return path

    def _send_page(self, path: Path) -> None:
        """``path`` (else the site's 404 page, else the report page) with the reload script and
        the banner while there is a headline."""
        epoch, headline = self.state.epoch, self.state.headline()
        status = 200
        try:
            page = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            missing = self.site / "404.html"
            if missing.is_file():
                status, page = 404, missing.read_text(encoding="utf-8", errors="replace")
            elif headline is not None:  # nothing has passed yet: the report is the page
                return self._send(
                    report_page(self.state.report() or "(verifying)", headline, epoch).encode("utf-8"),
                    "text/html; charset=utf-8",
                    503,
                )
            else:
                return super().do_GET()
        page = with_reload(page, epoch)
        if headline is not None:
            page = with_banner(page, self.state.report() or "(verifying)", headline)
        self._send(page.encode("utf-8"), "text/html; charset=utf-8", status)

    def _send(self, body: bytes, kind: str, status: int = 200) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address) -> None:
        import sys

        # A page closed or reloaded while its long poll was open: nothing to report. Anything
        # else is printed as usual (it would also show in a running cycle's report).
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def url_of(server: http.server.ThreadingHTTPServer) -> str:
    """``http://host:port/`` of a bound server."""
    host, port = server.server_address[:2]
    if isinstance(host, bytes):  # typeshed allows it for other families; AF_INET gives a str
        host = host.decode()
    return f"http://{host}:{port}/"


def now() -> str:
    return time.strftime("%H:%M:%S")
