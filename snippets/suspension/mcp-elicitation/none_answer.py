"""A wait_for that returns None, given to both the client and the toolkit:
the client's loop takes it as a refusal, the elicitation bridge fails on
it."""
import asyncio
import logging
import os
import sys
from pathlib import Path

from toolnexus import Request, create_client, create_toolkit, pending, tool

SERVER = Path(__file__).with_name("bookings_server.py")


@tool
def pick_day(topic: str):
    """Ask a person which day suits a meeting."""
    return pending(
        kind="input", id=f"day-{topic}", prompt=f"Which day for {topic}?"
    )


def no_answer(request: Request) -> None:
    print(
        f"wait_for got a Request of kind {request.kind!r},"
        f" id {request.id[:4]}...; returns None"
    )
    return None


class Kept(logging.Handler):
    """Keeps what is logged (the MCP SDK logs the callback's error)."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


async def main() -> None:
    kept = Kept()
    logging.getLogger().addHandler(kept)
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=no_answer,
    )
    bookings = {"command": [sys.executable, str(SERVER)]}
    config = {"mcpServers": {"bookings": bookings}}
    async with await create_toolkit(
        mcp_config=config, extra_tools=[pick_day], wait_for=no_answer,
        builtins=False,
    ) as toolkit:
        result = await client.run("Book a table, then pick a day.", toolkit)
    for call in result.tool_calls:
        print(f"{call['name']}: {call['output']!r} is_error={call['is_error']}")
    print(f"status: {result.status}")
    print(f"logged: {[m for m in kept.messages if 'NoneType' in m]}")


asyncio.run(main())
