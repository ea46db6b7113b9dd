"""The production checklist: every line links to a verified run, and a line that says "known
defect" links only to runs of scenarios that assert one."""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urljoin, urlparse

from conftest import BuiltSite, Verification
from verified_docs.render.anchors import evidence_anchor

PAGE = "suspension/production-checklist/index.html"


class _Rows(HTMLParser):
    """Each ``<tr>`` of a table body as (its text, the hrefs of its links)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[tuple[str, list[str]]] = []
        self._in_body = False
        self._row: tuple[list[str], list[str]] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tbody":
            self._in_body = True
        elif tag == "tr" and self._in_body:
            self._row = ([], [])
        elif tag == "a" and self._row is not None:
            self._row[1].append(dict(attrs).get("href", ""))

    def handle_endtag(self, tag):
        if tag == "tbody":
            self._in_body = False
        elif tag == "tr" and self._row is not None:
            self.rows.append(("".join(self._row[0]), self._row[1]))
            self._row = None

    def handle_data(self, data):
        if self._row is not None:
            self._row[0].append(data)


def _rows(site: BuiltSite) -> list[tuple[str, list[str]]]:
    parser = _Rows()
    parser.feed((site.site / PAGE).read_text(encoding="utf-8"))
    return parser.rows


def test_every_line_links_to_a_verified_run_on_its_page(built_site: BuiltSite, verification: Verification) -> None:
    assert built_site.returncode == 0, built_site.output
    runs = {evidence_anchor(s.name, r.name): s for s in verification.scenarios.values() for r in s.runs}
    rows = _rows(built_site)
    assert len(rows) >= 14  # fourteen behaviours, some in several lines
    for text, hrefs in rows:
        targets = [urlparse(urljoin("/" + PAGE, h)) for h in hrefs if "#evidence-" in h]
        assert targets, f"no verified run linked from: {text}"
        for target in targets:
            assert target.fragment in runs, f"{target.fragment} is not the evidence of a run ({text})"
            path = target.path.lstrip("/") + ("index.html" if target.path.endswith("/") else "")
            page = (built_site.site / path).read_text(encoding="utf-8")
            assert f'id="{target.fragment}"' in page, f"{target.path} has no #{target.fragment}"


def test_a_known_defect_line_links_only_to_known_defects(built_site: BuiltSite, verification: Verification) -> None:
    runs = {evidence_anchor(s.name, r.name): s for s in verification.scenarios.values() for r in s.runs}
    marked = [(text, hrefs) for text, hrefs in _rows(built_site) if "Known defect" in text]
    assert marked
    for text, hrefs in marked:
        for h in hrefs:
            fragment = urlparse(h).fragment
            if fragment.startswith("evidence-"):
                assert runs[fragment].known_defect, f"{runs[fragment].name} asserts no defect ({text})"
