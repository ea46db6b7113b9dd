"""The id of the Request an MCP elicitation becomes: toolnexus makes one up,
starting with elc-, so a host that shares one wait_for can tell these apart.
No model: the toolkit's tool is called as the run loop calls it.
"""
import asyncio
import sys
from pathlib import Path

from toolnexus import Answer, Request, create_toolkit

# The server is a file next to this one, started with this same interpreter.
SERVER = Path(__file__).with_name("bookings_server.py")


def wait_for(request: Request) -> Answer:
    """Print the Request's id, then decline."""
    print(f"elicitation Request id: {request.id}")
    return Answer(id=request.id, ok=False, reason="declined")


async def main() -> None:
    bookings = {"command": [sys.executable, str(SERVER)]}
    config = {"mcpServers": {"bookings": bookings}}
    async with await create_toolkit(
        mcp_config=config, wait_for=wait_for, builtins=False
    ) as toolkit:
        args = {"restaurant": "Luigi's"}
        result = await toolkit.execute("bookings_book_table", args)
        print(f"the tool gave: {result.output}")


asyncio.run(main())
