"""The server's timeout also bounds connecting: a 1 ms timeout leaves the
stdio server no time to start, and the toolkit loads none of its tools."""
import asyncio
import sys
from pathlib import Path

from toolnexus import create_toolkit

SERVER = Path(__file__).with_name("bookings_server.py")


async def main() -> None:
    for timeout in (1, 30_000):  # ms
        bookings = {"command": [sys.executable, str(SERVER)],
                    "timeout": timeout}
        config = {"mcpServers": {"bookings": bookings}}
        async with await create_toolkit(
            mcp_config=config, builtins=False
        ) as toolkit:
            names = sorted(t.name for t in toolkit.tools())
        print(f"timeout {timeout} ms: tools {names}")


asyncio.run(main())
