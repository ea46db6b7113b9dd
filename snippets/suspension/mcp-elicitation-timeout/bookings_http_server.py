"""A bookings MCP server over streamable HTTP whose book_table asks the user
for the party size (an elicitation), then says on its stdout what it did.

late_answer.py and host_deadline.py start it with start_server() and stop
it with stop_server(); it runs as a process of its own, already up when the
toolkit connects (the connect has the same limit as the call). Over HTTP,
its stdout is free for that log.
"""
import asyncio
import socket
import sys
import threading

import uvicorn
from mcp.server.fastmcp import Context, FastMCP
from pydantic import BaseModel, Field

server = FastMCP("bookings")


# --8<-- [start:tool]
class PartySize(BaseModel):
    """The form: one field."""

    guests: int = Field(description="Number of guests")


@server.tool(structured_output=False)
async def book_table(restaurant: str, ctx: Context) -> str:
    """Book a table; the user gives the party size."""
    reply = await ctx.elicit(f"Table at {restaurant}: how many guests?",
                             schema=PartySize)
    if reply.action == "accept":
        done = f"booked {restaurant} for {reply.data.guests} guests"
    else:
        done = f"not booked: the user chose {reply.action!r}"
    # The log of what the server did, whoever still waits for the result.
    print(f"server: {done}", flush=True)
    return done
# --8<-- [end:tool]


class AnnouncedServer(uvicorn.Server):
    """Prints the port once it accepts connections, so the client never
    connects before the server is ready; stops when its stdin is closed."""

    async def startup(self, sockets=None):
        await super().startup(sockets=sockets)
        print(f"port {sockets[0].getsockname()[1]}", flush=True)
        threading.Thread(target=self.stop_at_end_of_input, daemon=True).start()

    def stop_at_end_of_input(self):
        sys.stdin.read()  # returns once the process that started us closes it
        self.should_exit = True


async def start_server() -> tuple[asyncio.subprocess.Process, str]:
    """Start this file as a server process; returns it and its MCP URL."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, __file__,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )
    port = (await process.stdout.readline()).decode().split()[1]
    return process, f"http://127.0.0.1:{port}/mcp"


async def stop_server(process: asyncio.subprocess.Process) -> None:
    """Let the server shut down on its own (closing its stdin), and wait."""
    process.stdin.close()
    await process.wait()


if __name__ == "__main__":
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))  # a free port, announced once serving
    config = uvicorn.Config(server.streamable_http_app(), log_level="warning")
    AnnouncedServer(config).run(sockets=[listener])
