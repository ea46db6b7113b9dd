"""Pitfall: the retry re-runs the tool from the top, so work done before
suspending happens twice."""
import asyncio
import os
from pathlib import Path

from toolnexus import (
    Answer,
    Request,
    ToolContext,
    create_client,
    create_toolkit,
    pending,
    tool,
)

INCIDENTS = Path("incidents.log")


# --8<-- [start:tool]
@tool
def page_oncall(service: str, ctx: ToolContext = None):
    """File an incident and page the on-call engineer, once a human agrees."""
    with INCIDENTS.open("a") as log:  # side effect BEFORE the suspension
        log.write(f"incident filed for {service}\n")
    if ctx is None or ctx.answer is None:
        return pending(
            kind="approval",
            id=f"page-{service}",
            prompt=f"Page on-call for {service}?",
        )
    approver = ctx.answer.data["approver"]
    return f"paged on-call for {service}, approved by {approver}"
# --8<-- [end:tool]


def approve(request: Request) -> Answer:
    return Answer(id=request.id, ok=True, data={"approver": "sam"})


async def main() -> None:
    INCIDENTS.unlink(missing_ok=True)
    toolkit = await create_toolkit(extra_tools=[page_oncall], builtins=False)
    # --8<-- [start:run]
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
    # --8<-- [end:run]


if __name__ == "__main__":
    asyncio.run(main())
