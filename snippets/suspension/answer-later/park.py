"""Answer later, phase 1: a tool asks a human, the run halts, and the
request is parked in SQLite.

Run resume.py later, in another process, with the request id and the
human's reply.
"""
import asyncio
import dataclasses
import hashlib
import json
import os
import sqlite3

from toolnexus import ToolContext, create_client, create_toolkit, pending, tool

DB_PATH = "parked.db"


# --8<-- [start:tool]
@tool
def ask_human(question: str, ctx: ToolContext = None):
    """Ask a human a question and wait for the reply."""
    if ctx is None or ctx.answer is None:
        # The id comes from the question, so the same call made again in
        # resume.py suspends with the same id and the stored Answer matches it.
        request_id = "ask-" + hashlib.sha1(question.encode()).hexdigest()[:10]
        return pending(kind="input", id=request_id, prompt=question)
    # Called again with the human's Answer, the reply under the key we chose.
    return f"the human replied: {ctx.answer.data['value']}"
# --8<-- [end:tool]


# --8<-- [start:store]
def open_db() -> sqlite3.Connection:
    """One row per parked request: the Request and the transcript, as JSON."""
    db = sqlite3.connect(DB_PATH)
    db.execute(
        "CREATE TABLE IF NOT EXISTS parked ("
        " id TEXT PRIMARY KEY, request TEXT NOT NULL,"
        " messages TEXT NOT NULL, answered INTEGER NOT NULL DEFAULT 0)"
    )
    return db
# --8<-- [end:store]


async def main() -> None:
    toolkit = await create_toolkit(extra_tools=[ask_human], builtins=False)
    # No wait_for: a suspension ends the run with status "pending" instead
    # of blocking.
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
    )
    # --8<-- [start:park]
    result = await client.run(
        "Deploy the new build. Ask a human where it should go.", toolkit
    )
    print(f"status: {result.status}")
    if result.status == "pending":
        request = result.pending  # a Request: id, kind, prompt, ...
        db = open_db()
        with db:  # commits the insert
            db.execute(
                "INSERT OR REPLACE INTO parked (id, request, messages)"
                " VALUES (?, ?, ?)",
                (
                    request.id,
                    json.dumps(dataclasses.asdict(request)),
                    json.dumps(result.messages),
                ),
            )
        db.close()
        print(f"parked {request.id} ({request.kind}): {request.prompt}")
        print(f"transcript: {[m['role'] for m in result.messages]}")
    # --8<-- [end:park]


if __name__ == "__main__":  # resume.py imports ask_human and open_db
    asyncio.run(main())
