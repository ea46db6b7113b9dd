"""MCP elicitation, URL mode: the server sends the user to a page; wait_for
relays it."""
import asyncio
import os
import sys
from pathlib import Path

from toolnexus import Answer, Request, create_client, create_toolkit

SERVER = Path(__file__).with_name("bookings_server.py")


# --8<-- [start:wait-for]
def send_user_to_page(request: Request) -> Answer:
    """URL elicitations arrive as kind "authorization", with the page in
    request.url."""
    print(f"asked ({request.kind}): {request.prompt}")
    print(f"send the user to: {request.url}")
    print(f"data: {request.data}")
    # Here a real host shows the link and waits until the user has agreed to
    # go there.
    return Answer(id=request.id, ok=True)
# --8<-- [end:wait-for]


async def main() -> None:
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
    )
    # --8<-- [start:run]
    bookings = {"command": [sys.executable, str(SERVER)]}
    config = {"mcpServers": {"bookings": bookings}}
    async with await create_toolkit(
        mcp_config=config, wait_for=send_user_to_page, builtins=False
    ) as toolkit:
        result = await client.run("Connect my calendar.", toolkit)
    print(f"status: {result.status}")
    print(f"model said: {result.text}")
    # --8<-- [end:run]


asyncio.run(main())
