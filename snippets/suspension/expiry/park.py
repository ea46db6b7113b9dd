"""A durable host parks a refund Request; expiresAt is stored with it, unread.

Usage: python park.py
"""
import asyncio
import json
import os
from dataclasses import asdict
from pathlib import Path

from toolnexus import create_client, create_toolkit

from refund_tool import refund


async def main() -> None:
    toolkit = await create_toolkit(extra_tools=[refund], builtins=False)
    # --8<-- [start:park]
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
    )  # no wait_for: the run halts
    result = await client.run("Refund my order.", toolkit)
    print(f"status: {result.status}")
    stored = json.dumps(asdict(result.pending))
    Path("parked.json").write_text(stored)
    print(f"parked: {stored}")
    # --8<-- [end:park]


asyncio.run(main())
