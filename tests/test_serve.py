"""The author loop (`nox -s serve`): a save re-verifies only what changed, rewrites the ledger,
rebuilds and reloads; a save that breaks keeps the server up and puts the report on every
page until a save makes it green again."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from tests.serving import NAME, PROGRAM, make_project, serving, with_group_gone
from verified_docs.serve.preview import BANNER_ID, with_banner, with_reload

OLD_COMMENT = "# First call: nothing has been approved yet, so suspend with a Request."
NEW_COMMENT = "# First call: nothing is approved yet, so suspend with a Request."
PRINTED = 'f"reviewer asked: {request.prompt}"'
BROKEN = 'f"reviewer was asked: {request.prompt}"'


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{path} should hold {old!r} once"
    path.write_text(text.replace(old, new), encoding="utf-8")


def passed(project: Path) -> bool:
    ledger = json.loads((project / "build" / "verified-ledger.json").read_text(encoding="utf-8"))
    return ledger["programs"][PROGRAM.as_posix()]["passed"]


def test_a_save_re_verifies_what_changed_and_reloads_the_page(project: Path) -> None:
    with serving(project) as served:
        first = served.next_epoch(0)
        assert first["ok"] is True, served.printed()
        assert list(first["reverified"]) == [NAME]
        assert (first["pages_rendered"], first["pages_built"]) == (2, 2), "the first cycle builds every page"
        status, page = served.get("")
        assert status == 200 and OLD_COMMENT in page and BANNER_ID not in page
        assert "window.vdServeEpoch = 1;" in page  # the reload script, with the epoch served

        edit(project / PROGRAM, OLD_COMMENT, NEW_COMMENT)
        after = served.next_epoch(1)
        assert after["ok"] is True, served.printed()
        assert list(after["reverified"]) == [NAME], "the edited scenario is verified again"
        assert (after["pages_rendered"], after["pages_built"]) == (1, 1), "only the page showing it is built again"
        status, page = served.get("")
        assert status == 200 and NEW_COMMENT in page and OLD_COMMENT not in page
        assert "window.vdServeEpoch = 2;" in page and BANNER_ID not in page
        assert passed(project)
        assert f"[serve] changed: {PROGRAM}" in served.printed_once(f"[serve] changed: {PROGRAM}")
        assert f"re-verified: {NAME} in " in served.printed_once(f"re-verified: {NAME} in ")

        # A page edit re-verifies nothing: the scenario is answered from the result cache.
        edit(project / "docs" / "other.md", "No example", "Still no example")
        after = served.next_epoch(2)
        assert after["ok"] is True and after["reverified"] == {}, served.printed()
        assert (after["pages_rendered"], after["pages_built"]) == (1, 1), "only the edited page is built again"
        assert "Still no example on this page." in served.get("other/")[1]
        assert "re-verified: none; render" in served.printed_once("re-verified: none; render")

        served.proc.send_signal(signal.SIGTERM)
        assert served.proc.wait(30) == 0
        assert "[serve] stopped" in served.printed_once("[serve] stopped")
        assert with_group_gone(served.proc.pid), "serve left a process of its own behind"


def test_a_save_that_breaks_shows_the_report_on_every_page_until_a_save_fixes_it(project: Path) -> None:
    report = [
        f"{NAME}/approve-then-decline[python]: 1 problem(s) running approval_gate.py",
        f"{PROGRAM}.out:1: printed output differs from the golden output",
        f"    if the printed output is right: `nox -s update-outputs -- --only {NAME}` "
        "(it rewrites a run's golden file only when this is the run's one problem: fix the others first)",
    ]
    with serving(project) as served:
        assert served.next_epoch(0)["ok"] is True, served.printed()

        edit(project / PROGRAM, PRINTED, BROKEN)
        broken = served.next_epoch(1)
        assert broken["ok"] is False
        assert broken["report"].splitlines()[:3] == report
        assert broken["report"].count("update-outputs") == 1, "the command is named once"
        served.printed_once("\n".join(report))
        assert "\n".join(report) in "".join(served.err), "the report is printed as the build prints it"
        assert served.proc.poll() is None, "the server stays up"
        assert not passed(project), "the ledger says the program did not pass"
        for path, status in (("", 200), ("other/", 200), ("no-such-page/", 404)):
            code, page = served.get(path)
            assert code == status, path
            assert f'<div id="{BANNER_ID}" role="alert"' in page, path
            assert "The last save failed verification at " in page, path
            assert "not your files as saved" in page, path
            assert report[1] in page, path
        assert "NOT VERIFIED after" in served.printed_once("NOT VERIFIED after")

        edit(project / PROGRAM, BROKEN, PRINTED)
        fixed = served.next_epoch(2)
        assert fixed["ok"] is True and fixed["report"] == "", served.printed()
        for path in ("", "other/"):
            code, page = served.get(path)
            assert code == 200 and BANNER_ID not in page, path
        assert passed(project)


def test_a_page_that_breaks_the_strict_build_shows_its_warning(project: Path) -> None:
    with serving(project) as served:
        assert served.next_epoch(0)["ok"] is True, served.printed()
        edit(project / "docs" / "other.md", "No example on this page.", "See [the missing page](missing.md).")
        broken = served.next_epoch(1)
        assert broken["ok"] is False and broken["reverified"] == {}
        assert broken["report"].splitlines() == [
            "WARNING -  Doc file 'other.md' contains a link 'missing.md', but the target is not found among "
            "documentation files.",
            "[serve] not verified: mkdocs build --strict failed: Aborted with 1 warnings in strict mode!",
        ]
        code, page = served.get("other/")
        assert code == 200 and BANNER_ID in page and "No example on this page." in page  # the last that passed


def test_a_malformed_scenario_is_reported_at_its_line_and_served_before_anything_passed(project: Path) -> None:
    yaml = project / "snippets" / NAME / "scenario.yaml"
    text = yaml.read_text(encoding="utf-8")
    yaml.write_text(text.replace("title:", "titel:", 1), encoding="utf-8")
    with serving(project) as served:
        state = served.next_epoch(0)
        assert state["ok"] is False and state["passed_at"] is None
        assert state["report"].splitlines() == [
            f"snippets/{NAME}/scenario.yaml:1: (top level): Additional properties are not allowed ('titel' was "
            "unexpected)",
            f"snippets/{NAME}/scenario.yaml:1: (top level): 'title' is a required property",
        ]
        code, page = served.get("")
        assert code == 503 and BANNER_ID in page and "no build has passed since the server started" in page


def test_the_banner_goes_right_after_body_and_the_script_before_its_end() -> None:
    page = '<html><body class="x"><p>page</p></body></html>'
    assert with_banner(page, "a.py:3: <bad>", "Broken.").startswith(f'<html><body class="x"><div id="{BANNER_ID}"')
    assert "a.py:3: &lt;bad&gt;</pre></div><p>page</p>" in with_banner(page, "a.py:3: <bad>", "Broken.")
    assert with_reload(page, 7).endswith("})();</script></body></html>")
    assert "window.vdServeEpoch = 7;" in with_reload(page, 7)
