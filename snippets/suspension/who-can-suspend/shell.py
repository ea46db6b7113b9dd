"""The model runs a shell command, writes, edits and patches files and
fetches a URL: a default toolkit, and nobody is asked.

Usage: python shell.py
"""
import asyncio
import os
from pathlib import Path

from toolnexus import create_client, create_toolkit


async def main() -> None:
    # --8<-- [start:run]
    # Nothing of the host's own: only the built-ins.
    toolkit = await create_toolkit()
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
    )
    result = await client.run("Leave a note for the team.", toolkit)
    for call in result.tool_calls:
        print(f"{call['name']} {call['args']}: {call['output']!r}")
    print(f"status: {result.status}")
    print(f"bash ran: {result.tool_calls[0]['metadata']['shell']}")
    print(f"note.txt holds: {Path('note.txt').read_text()!r}")
    print(f"plan.txt holds: {Path('plan.txt').read_text()!r}")
    # --8<-- [end:run]


asyncio.run(main())
