"""The fix: suspend before the side effect, so the first call changes
nothing."""
import asyncio
import os
from pathlib import Path

from toolnexus import ToolContext, create_client, create_toolkit, pending, tool

from side_effect_first import approve

INCIDENTS = Path("incidents-fixed.log")


# --8<-- [start:tool]
@tool
def page_oncall(service: str, ctx: ToolContext = None):
    """File an incident and page the on-call engineer, once a human agrees."""
    if ctx is None or ctx.answer is None:
        # Nothing has happened yet, so running this call again is harmless.
        return pending(
            kind="approval",
            id=f"page-{service}",
            prompt=f"Page on-call for {service}?",
        )
    with INCIDENTS.open("a") as log:  # only the approved call gets here
        log.write(f"incident filed for {service}\n")
    approver = ctx.answer.data["approver"]
    return f"paged on-call for {service}, approved by {approver}"
# --8<-- [end:tool]


async def main() -> None:
    INCIDENTS.unlink(missing_ok=True)
    toolkit = await create_toolkit(extra_tools=[page_oncall], builtins=False)
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=approve,
    )
    result = await client.run("Payments is down. Get someone on it.", toolkit)
    print(f"model said: {result.text}")
    lines = INCIDENTS.read_text().splitlines()
    print(f"{INCIDENTS} holds {len(lines)} line(s):")
    print(INCIDENTS.read_text(), end="")


asyncio.run(main())
