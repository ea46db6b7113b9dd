"""MCP elicitation with wait_for on the client only: the server's question
never arrives."""
import asyncio
import os
import sys
from pathlib import Path

from toolnexus import Answer, Request, create_client, create_toolkit

SERVER = Path(__file__).with_name("bookings_server.py")


def fill_in_form(request: Request) -> Answer:
    print(f"asked ({request.kind}): {request.prompt}")  # not run
    return Answer(  # not run
        id=request.id, ok=True, data={"guests": 4, "time": "19:30"}
    )


async def main() -> None:
    # --8<-- [start:wrong-place]
    bookings = {"command": [sys.executable, str(SERVER)]}
    config = {"mcpServers": {"bookings": bookings}}
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        # This wait_for answers tools that return pending(...), not MCP
        # elicitations.
        wait_for=fill_in_form,
    )
    async with await create_toolkit(
        mcp_config=config, builtins=False
    ) as toolkit:
        result = await client.run("Book a table at Luigi's.", toolkit)
    print(f"status: {result.status}")
    print(f"model said: {result.text}")
    # --8<-- [end:wrong-place]


asyncio.run(main())
