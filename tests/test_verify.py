"""Verification end to end: a broken example fails with a message saying what differed."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import SAMPLES, SNIPPETS, gone
from verified_docs.errors import Location
from verified_docs.scenario.load import load_scenario
from verified_docs.verify.scenarios import verify_scenario

BROKEN = SAMPLES / "snippets"


def copy_scenario(tmp_path: Path, name: str) -> Path:
    target = tmp_path / "snippets" / name
    shutil.copytree(SNIPPETS / name, target)
    return target


def verify_copy(folder: Path, root: Path):
    return verify_scenario(load_scenario(folder, root))


def messages(verdicts) -> str:
    return "\n".join(v.report() for v in verdicts if not v.passed)


def test_unchanged_copy_passes(tmp_path: Path) -> None:
    folder = copy_scenario(tmp_path, "suspension/approval-gate")
    verdicts = verify_copy(folder, tmp_path / "snippets")
    assert [v.passed for v in verdicts] == [True], messages(verdicts)


def test_one_character_of_golden_output_changed_fails_with_a_diff(tmp_path: Path) -> None:
    folder = copy_scenario(tmp_path, "suspension/approval-gate")
    golden = folder / "approval_gate.py.out"
    golden.write_text(golden.read_text().replace("approved by dana", "approved by dina", 1))
    (v,) = verify_copy(folder, tmp_path / "snippets")
    (problem,) = v.problems
    assert problem.what == "printed output differs from the golden output"
    assert str(problem.where) == f"{golden}:3"
    # The fix, named once, for this scenario: what `nox -s update-outputs -- --only` matches.
    assert "`nox -s update-outputs -- --only suspension/approval-gate`" in problem.details[0]
    assert v.report().count("update-outputs") == 1
    assert "-model said: The tool result I was shown: deployed to staging, approved by dina" in problem.details
    assert "+model said: The tool result I was shown: deployed to staging, approved by dana" in problem.details


def test_reply_under_another_key_never_reaches_the_tool_and_fails(tmp_path: Path) -> None:
    # The careless-host mistake: the Answer carries the reply under a key the tool does not read.
    folder = copy_scenario(tmp_path, "suspension/approval-gate")
    program = folder / "approval_gate.py"
    source = program.read_text()
    assert 'data={"approver": "dana"}' in source
    program.write_text(source.replace('data={"approver": "dana"}', 'data={"name": "dana"}'))
    (v,) = verify_copy(folder, tmp_path / "snippets")
    report = v.report()
    assert "tool_results_shown: expected ['deployed to staging, approved by dana', " in report
    assert "tool_answers: expected" in report
    assert f"{folder / 'scenario.yaml'}:" in report


def test_declined_instead_of_approved_fails_on_evidence(tmp_path: Path) -> None:
    folder = copy_scenario(tmp_path, "suspension/approval-gate")
    program = folder / "approval_gate.py"
    program.write_text(program.read_text().replace("for decision in (True, False):", "for decision in (False, False):"))
    (v,) = verify_copy(folder, tmp_path / "snippets")
    report = v.report()
    assert "tool_runs: expected {'deploy': 3}, got {'deploy': 2}" in report
    assert "tool_results_shown" in report


def test_hanging_program_is_killed_with_its_children_and_the_rest_reported() -> None:
    hang, after = verify_copy(BROKEN / "broken/hang", BROKEN)
    # The program prints its child's pid just before it hangs: without it, the timeout landed
    # before the program got there, and the checks below would test the wrong kill.
    assert hang.stdout.strip().isdigit(), f"killed before it reached its sleep: {hang.report()}"
    assert hang.problems[0].what == "killed after its 5s timeout (process group sent SIGKILL)"
    assert str(hang.problems[0].where).endswith("hang/hang.py:8")  # where it was stuck, from the stack dump
    assert after.problems[0].what == "not run: the earlier run 'hangs' failed"
    assert str(after.problems[0].where).endswith("hang/scenario.yaml:8")
    # Only the child this run started (its pid, printed before the hang) is looked at: a
    # machine-wide search would also find another suite's hanging child.
    child = int(hang.stdout)
    assert gone(child), f"the hanging program's child {child} survived"


def test_syntax_error_names_the_snippet_line() -> None:
    (v,) = verify_copy(BROKEN / "broken/syntax-error", BROKEN)
    first = v.problems[0]
    assert str(first.where).endswith("syntax-error/broken.py:3")
    assert first.what == "exit code: expected 0, got 1"
    assert any("SyntaxError" in d for d in first.details)


def test_a_support_module_that_raises_at_import_is_reported_at_its_own_line_first() -> None:
    # The program's line 1 (`import settings`) is only the caller: the fault is settings.py:5.
    folder = BROKEN / "broken/support-raises"
    (v,) = verify_copy(folder, BROKEN)
    first = v.problems[0]
    assert first.where == Location(folder / "settings.py", 5)
    assert first.what == "exit code: expected 0, got 1"
    assert first.details[:3] == (
        "raised KeyError: 'approver'",
        f"called from {Location(folder / 'settings.py', 8)}",
        f"called from {Location(folder / 'main.py', 1)}",
    )
    # Named from the working directory (the repository root in a build), not absolutely.
    assert str(first).startswith("tests/samples/snippets/broken/support-raises/settings.py:5: exit code")
    assert v.report().count("settings.py:5:") == 1


def test_a_crash_in_the_program_itself_names_its_line_and_the_exception() -> None:
    (v,) = verify_copy(BROKEN / "broken/syntax-error", BROKEN)
    first = v.problems[0]
    assert first.details[0].startswith("raised SyntaxError: ")
    assert not any(d.startswith("called from") for d in first.details)


def test_non_zero_exit_shows_stderr() -> None:
    (v,) = verify_copy(BROKEN / "broken/exit-code", BROKEN)
    first = v.problems[0]
    assert first.what == "exit code: expected 0, got 3"
    assert first.details == ("about to fail",)


def test_tool_that_ignores_the_answer_fails_even_with_the_right_words(tmp_path: Path) -> None:
    # The hard-coded mutant: same text, same run counts, but the Answer's data is never read.
    folder = copy_scenario(tmp_path, "suspension/approval-gate")
    program = folder / "approval_gate.py"
    source = program.read_text()
    assert 'approver = ctx.answer.data["approver"]' in source
    program.write_text(source.replace('approver = ctx.answer.data["approver"]', 'approver = "dana"'))
    (v,) = verify_copy(folder, tmp_path / "snippets")
    (problem,) = v.problems
    assert problem.what == "answer_data_read: expected [True], got [False]"
    yaml_lines = (folder / "scenario.yaml").read_text().splitlines()
    line = next(i for i, text in enumerate(yaml_lines, start=1) if "answer_data_read" in text)
    assert str(problem.where) == f"{folder / 'scenario.yaml'}:{line}"


def test_unclosed_section_is_a_verdict_problem_not_a_crash(tmp_path: Path) -> None:
    folder = copy_scenario(tmp_path, "suspension/approval-gate")
    program = folder / "approval_gate.py"
    source = program.read_text()
    line = source.splitlines().index("# --8<-- [start:tool]") + 1
    program.write_text(source.replace("# --8<-- [end:tool]\n", "", 1))
    (v,) = verify_copy(folder, tmp_path / "snippets")
    assert [str(p) for p in v.problems] == [
        f"{program}:{line}: section 'tool' is never closed (expected '--8<-- [end:tool]')"
    ]


def test_hard_coded_reply_fails_in_the_variant_pass(tmp_path: Path) -> None:
    # The reply comes from argv; the scenario's variant re-runs it with another reply.
    folder = copy_scenario(tmp_path, "suspension/answer-later")
    program = folder / "resume.py"
    source = program.read_text()
    assert 'data={"value": reply}' in source
    program.write_text(source.replace('data={"value": reply}', 'data={"value": "staging"}'))
    verdicts = {v.run.name: v for v in verify_copy(folder, tmp_path / "snippets")}
    park, resume = verdicts["park"], verdicts["resume"]
    assert park.passed
    whats = [p.what for p in resume.problems]
    assert (
        "in the variant 'staging' -> 'eu-north-1': tool_results_shown: expected "
        "['the human replied: eu-north-1'], got ['the human replied: staging']" in whats
    )
    assert "in the variant 'staging' -> 'eu-north-1': printed output differs from the golden output" in whats
    # Rewriting the golden file cannot make a hard-coded output follow the variant: no command.
    assert "update-outputs" not in resume.report()


HOSTILE = SAMPLES / "snippets"


def only_problem_whats(name: str) -> list[str]:
    (v,) = verify_copy(HOSTILE / "hostile" / name, HOSTILE)
    return [p.what for p in v.problems]


def test_flooding_program_is_killed_at_the_cap_and_reported_once() -> None:
    (v,) = verify_copy(HOSTILE / "hostile/flood", HOSTILE)
    # One problem: the cut-off output is not also diffed against the golden file.
    assert [p.what for p in v.problems] == ["killed: its stdout passed 2,000,000 bytes (flooding output?)"]


def test_signal_is_named() -> None:
    assert "exit code: expected 0, got signal 11 (SIGSEGV)" in only_problem_whats("signal")


def test_reading_stdin_is_explained() -> None:
    whats = only_problem_whats("stdin")
    assert "exit code: expected 0, got 1; it read standard input, which snippets never get" in whats


def test_reaching_the_network_is_refused_before_a_packet_leaves_and_says_so() -> None:
    (v,) = verify_copy(HOSTILE / "hostile/network", HOSTILE)
    assert v.problems[0].what == (
        "exit code: expected 0, got 1; it tried to reach 'example.com', but only the mock "
        "model on 127.0.0.1 is reachable"
    )


def test_non_utf8_output_is_reported_with_its_offset() -> None:
    whats = only_problem_whats("not-utf8")
    assert "printed output that is not UTF-8: stdout byte 3 (0xe9) is not UTF-8" in whats


def test_a_program_that_is_not_utf8_is_a_problem_at_its_line_not_a_crash(tmp_path: Path) -> None:
    folder = copy_scenario(tmp_path, "suspension/approval-gate")
    program = folder / "approval_gate.py"
    lines = program.read_bytes().split(b"\n")
    program.write_bytes(b"# -*- coding: latin-1 -*-\n" + b"\n".join(lines) + b"# caf\xe9\n")
    (v,) = verify_copy(folder, tmp_path / "snippets")
    assert [(str(p.where), p.what) for p in v.problems] == [
        (
            f"{program}:{len(lines) + 1}",
            "byte 0xe9 is not UTF-8; save the file as UTF-8 (pages show it, and readers copy it, as UTF-8)",
        )
    ]


def test_sleeps_are_counted_in_every_process_and_a_scenario_over_the_limit_fails() -> None:
    # time.sleep, asyncio.sleep and `from asyncio import sleep` all count, from the fork
    # server and from a cold interpreter alike; the problem names the longest sleeper's line.
    for warm in (True, False):
        verdicts = verify_scenario(load_scenario(BROKEN / "broken/sleepy", BROKEN), warm=warm)
        assert [(v.run.name, v.slept_s) for v in verdicts] == [("time-sleep", 0.12), ("asyncio-sleep", 0.12)]
        assert verdicts[0].passed
        assert [(p.where.path, p.where.line, p.what) for p in verdicts[1].problems] == [
            (
                BROKEN / "broken/sleepy/scenario.yaml",
                3,
                "its runs sleep 0.24 s in all (time-sleep 0.12 s, "
                "asyncio-sleep 0.12 s; time.sleep and asyncio.sleep, in the programs and in toolnexus); a scenario "
                "may sleep 0.2 s at most: wait on an event, or give the library's own limit a short value",
            )
        ]


def test_a_scenario_under_the_sleep_limit_passes(tmp_path: Path) -> None:
    folder = tmp_path / "snippets/broken/sleepy"
    shutil.copytree(BROKEN / "broken/sleepy", folder)
    program = folder / "sleeps.py"
    program.write_text(program.read_text().replace("0.05", "0.02"))
    verdicts = verify_copy(folder, tmp_path / "snippets")
    assert [(v.passed, v.slept_s) for v in verdicts] == [(True, 0.09), (True, 0.09)], messages(verdicts)


def test_only_the_examples_own_sleeps_count_and_a_cut_short_sleep_counts_what_it_lasted() -> None:
    # 0.6 s asked for by an installed package (a server's idle loop) count for nothing; an
    # endless sleep that a 0.05 s timeout cancels counts the time it lasted.
    (v,) = verify_scenario(load_scenario(BROKEN / "broken/sleep-elsewhere", BROKEN))
    assert v.passed, v.report()
    # The timeout's clock starts before the sleep does, so the sleep measured can end a little
    # short of 0.05 s (0.049745 s seen on a fresh clone, 2026-12-06); none counted would be 0.
    assert 0.04 <= v.slept_s < 0.6  # were the package's 0.6 s counted, it would be at least 0.65
