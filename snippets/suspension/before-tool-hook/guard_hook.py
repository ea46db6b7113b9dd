"""A before_tool hook that suspends: the refund tool does not run until a
human approves.

Usage: python guard_hook.py approves | declines
"""
import asyncio
import os
import sys

from toolnexus import (
    Answer,
    Request,
    ToolContext,
    create_client,
    create_toolkit,
    pending,
    tool,
)


# --8<-- [start:tool]
@tool
def refund(order_id: str, amount: float, ctx: ToolContext = None):
    """Refund an amount on an order."""
    # No approval check here: the hook below keeps unapproved calls away.
    # When the loop runs this after an approval, ctx.answer holds the Answer.
    answer = ctx.answer if ctx else None
    print(f"  refund runs: {order_id} {amount}, ctx.answer={answer}")
    approver = ctx.answer.data["approver"] if answer else "no one"
    return f"refunded {amount:.2f} on {order_id}, approved by {approver}"
# --8<-- [end:tool]


# --8<-- [start:hook]
def before_tool(event: dict):
    """Every refund waits for a human: return a suspension instead of
    letting the tool run."""
    print(f"  before_tool: {event['name']} {event['args']}")
    if event["name"] != "refund":
        # Other tools would run as usual; only refunds are called here.
        return None  # not run
    args = event["args"]
    return {"result": pending(
        kind="approval",
        id=f"refund-{args['order_id']}",
        prompt=f"Refund {args['amount']:.2f} on order {args['order_id']}?",
    )}
# --8<-- [end:hook]


def approver(approve: bool):
    def wait_for(request: Request) -> Answer:
        print(f"  wait_for: {request.prompt}")
        if approve:
            return Answer(id=request.id, ok=True, data={"approver": "dana"})
        return Answer(id=request.id, ok=False, reason="declined")

    return wait_for


async def main(mode: str) -> None:
    toolkit = await create_toolkit(extra_tools=[refund], builtins=False)
    # --8<-- [start:run]
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        hooks={"before_tool": before_tool},
        wait_for=approver(mode == "approves"),
    )
    result = await client.run("Refund order A-1001 in full (250.00).", toolkit)
    print(f"status: {result.status}")
    print(f"model said: {result.text}")
    # --8<-- [end:run]


asyncio.run(main(sys.argv[1]))
