"""after_tool and the metrics, when the approved re-run suspends again.

Usage: python after_tool.py observe|replace

The payment tool asks for an approval, then (on its re-run) for a code the
bank sent. "observe" only prints what after_tool is given; "replace" hands
the model the second Request's prompt instead of the loop's
"unresolved: <first prompt>".
"""
import asyncio
import os
import sys

from toolnexus import (
    Answer,
    Request,
    ToolContext,
    ToolResult,
    create_client,
    create_toolkit,
    pending,
    pending_of,
    tool,
)

REPLACE = sys.argv[1] == "replace"


# --8<-- [start:tool]
@tool
def pay_invoice(invoice: str, ctx: ToolContext = None):
    """Pay a supplier invoice."""
    if ctx is None or ctx.answer is None:
        return pending(kind="approval", id=f"pay-{invoice}",
                       prompt=f"Pay invoice {invoice}?")
    # Approved; the bank wants a second factor before it pays.
    return pending(kind="input", id=f"code-{invoice}",
                   prompt=f"Enter the code the bank sent for {invoice}.")
# --8<-- [end:tool]


# --8<-- [start:hooks]
def before_tool(event: dict):
    print(f"  before_tool: {event['name']} {event['args']}")


def after_tool(event: dict):
    again = pending_of(event["result"])
    print(f"  after_tool: {event['name']}, "
          f"suspended again: {again is not None}")
    if REPLACE and again is not None:
        # Say what is really missing, not "unresolved: <first prompt>".
        return {"result": ToolResult(output=f"still needed: {again.prompt}",
                                     is_error=True)}
    return None


def print_tool_metric(event: dict) -> None:
    if event["event"] == "tool":
        print(f"  metric: {event['tool']} is_error={event['is_error']} "
              f"pending={event.get('pending', False)}")
# --8<-- [end:hooks]


def approver(request: Request) -> Answer:
    print(f"  wait_for: {request.prompt}")
    return Answer(id=request.id, ok=True)


async def main() -> None:
    toolkit = await create_toolkit(extra_tools=[pay_invoice], builtins=False)
    # --8<-- [start:run]
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=approver,
        hooks={"before_tool": before_tool, "after_tool": after_tool},
        on_metric=print_tool_metric,
    )
    result = await client.run("Pay invoice INV-204.", toolkit)
    print(f"model was shown: {result.tool_calls[0]['output']!r}")
    print(f"status: {result.status}, pending: {result.pending}")
    for line in client.metrics().splitlines():
        if line.startswith("toolnexus_tool_calls_total{"):
            print(line)
    # --8<-- [end:run]


asyncio.run(main())
