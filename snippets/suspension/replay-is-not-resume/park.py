"""Replay is not resume, phase 1: ask() halts on a suspended tool and a
SQLite store keeps the chat.

This half is fine. The defect is in replay.py, which shows what does NOT
resume the run.
"""
import asyncio
import hashlib
import json
import os
import sqlite3
import sys

from toolnexus import ToolContext, create_client, create_toolkit, pending, tool


@tool
def ask_human(question: str, ctx: ToolContext = None):
    """Ask a human a question and wait for the reply."""
    if ctx is None or ctx.answer is None:
        request_id = "ask-" + hashlib.sha1(question.encode()).hexdigest()[:10]
        return pending(kind="input", id=request_id, prompt=question)
    return f"the human replied: {ctx.answer.data['value']}"


# The conversation id; the build runs phase 1 and 2 once per model
# behaviour, each in its own.
CONVERSATION = sys.argv[1] if len(sys.argv) > 1 else "conv-1"


# --8<-- [start:store]
class SqliteConversationStore:
    """A toolnexus ConversationStore: one JSON row per conversation."""

    def __init__(self, path: str = "conversations.db") -> None:
        self.db = sqlite3.connect(path)
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS conversations"
            " (id TEXT PRIMARY KEY, messages TEXT NOT NULL)"
        )

    async def get(self, id: str):
        row = self.db.execute(
            "SELECT messages FROM conversations WHERE id = ?", (id,)
        ).fetchone()
        return json.loads(row[0]) if row else None

    async def save(self, id: str, messages) -> None:
        with self.db:  # commits
            self.db.execute(
                "INSERT OR REPLACE INTO conversations VALUES (?, ?)",
                (id, json.dumps(messages)),
            )
# --8<-- [end:store]


async def main() -> None:
    toolkit = await create_toolkit(extra_tools=[ask_human], builtins=False)
    # --8<-- [start:halt]
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        store=SqliteConversationStore(),  # no wait_for: the run halts
    )
    result = await client.ask(
        "Deploy the new build. Ask a human where it should go.",
        toolkit,
        id=CONVERSATION,
    )
    print(f"status: {result.status}")
    request = result.pending
    print(f"pending: {request.id} ({request.kind}): {request.prompt}")
    # --8<-- [end:halt]


if __name__ == "__main__":  # replay.py imports ask_human and the store
    asyncio.run(main())
