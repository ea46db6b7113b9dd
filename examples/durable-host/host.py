"""A durable host: runs that wait for a person are parked in SQLite and
resumed later.

    python host.py start "<task for the model>"
        run until done, or park the first Request
    python host.py list
        show parked requests
    python host.py answer <request id> <reply>
        resume a parked run with the person's reply
    python host.py decline <request id>
        resume it with a refusal

Each command is its own process; everything between them lives in the
SQLite file (HOST_DB, default host.db). The model is reached through
OPENAI_BASE_URL and OPENAI_API_KEY.
"""
from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import sqlite3
import sys

from toolnexus import Answer, Request, create_client, create_toolkit

from tools import TOOLS


# --8<-- [start:schema]
def open_db() -> sqlite3.Connection:
    """Parked runs: the Request, the transcript up to the halt, and where
    the run is now."""
    db = sqlite3.connect(os.environ.get("HOST_DB", "host.db"))
    db.execute(
        "CREATE TABLE IF NOT EXISTS parked ("
        " id TEXT PRIMARY KEY,"
        " request TEXT NOT NULL,"  # Request as JSON
        " messages TEXT NOT NULL,"  # transcript, ending with the halted call
        " state TEXT NOT NULL DEFAULT 'waiting')"  # or answered, declined
    )
    return db
# --8<-- [end:schema]


def client(wait_for=None):
    return create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=wait_for,
    )


# --8<-- [start:park]
def park(db: sqlite3.Connection, request: Request, messages: list) -> None:
    with db:
        db.execute(
            "INSERT OR REPLACE INTO parked (id, request, messages, state)"
            " VALUES (?, ?, ?, 'waiting')",
            (
                request.id,
                json.dumps(dataclasses.asdict(request)),
                json.dumps(messages),
            ),
        )
    print(f"parked {request.id} [{request.kind}] {request.prompt}")


async def start(task: str) -> int:
    toolkit = await create_toolkit(extra_tools=TOOLS, builtins=False)
    # No wait_for: a suspension halts the run.
    result = await client().run(task, toolkit)
    if result.status == "pending":
        park(open_db(), result.pending, result.messages)
    else:
        print(f"{result.status}: {result.text}")
    return 0
# --8<-- [end:park]


# --8<-- [start:resume]
def one_shot(answer: Answer):
    """wait_for that gives ``answer`` once, and only to the Request with the
    same id."""
    given = []

    def wait_for(request: Request) -> Answer:
        if request.id != answer.id or given:
            raise LookupError(
                f"request {request.id} is not the one being answered"
                f" ({answer.id})"
            )
        given.append(request.id)
        return answer

    return wait_for


async def resume(request_id: str, answer_for) -> int:
    db = open_db()
    row = db.execute(
        "SELECT messages FROM parked WHERE id = ? AND state = 'waiting'",
        (request_id,),
    ).fetchone()
    if row is None:
        print(f"no waiting request {request_id}")
        return 1
    messages = json.loads(row[0])
    answer = answer_for(request_id)
    # Rewind to before the halted user turn and run that turn again: the tool
    # suspends with the same id, wait_for hands over the Answer, and the tool
    # runs again with ctx.answer.
    turn = max(i for i, m in enumerate(messages) if m["role"] == "user")
    toolkit = await create_toolkit(extra_tools=TOOLS, builtins=False)
    try:
        result = await client(one_shot(answer)).run(
            messages[turn]["content"], toolkit, history=messages[:turn]
        )
    except LookupError as error:
        # wait_for was handed a Request other than the parked one: the model
        # asked something else, or a later call suspended after the Answer
        # was handed over. run raised, and the row stays waiting.
        print(f"not resumed: {error}")
        return 1
    state = "answered" if answer.ok else "declined"
    with db:
        db.execute(
            "UPDATE parked SET state = ? WHERE id = ?", (state, request_id)
        )
    # With wait_for set, run never returns "pending": a tool that suspends
    # again with the Answer gives the model "unresolved: <prompt>", and any
    # other Request makes one_shot raise (above).
    print(f"{result.status}: {result.text}")
    return 0
# --8<-- [end:resume]


def list_parked() -> int:
    rows = open_db().execute(
        "SELECT id, request, state FROM parked ORDER BY rowid"
    )
    for rid, request, state in rows:
        print(f"{rid} {state}: {json.loads(request)['prompt']}")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="host.py", description="A durable host for suspended tool calls."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("start").add_argument("task")
    sub.add_parser("list")
    answer = sub.add_parser("answer")
    answer.add_argument("request_id")
    answer.add_argument("reply")
    sub.add_parser("decline").add_argument("request_id")
    args = parser.parse_args(argv)
    if args.command == "start":
        return asyncio.run(start(args.task))
    if args.command == "list":
        return list_parked()
    if args.command == "answer":
        def reply(rid: str) -> Answer:
            return Answer(id=rid, ok=True, data={"value": args.reply})

        return asyncio.run(resume(args.request_id, reply))

    def refusal(rid: str) -> Answer:
        return Answer(id=rid, ok=False, reason="declined")

    return asyncio.run(resume(args.request_id, refusal))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
