"""A host built for one approval, and a model with the built-in tools.

Usage: python the_model_asks.py no-wait-for|approver|by-kind
"""
import asyncio
import os
import sys

from toolnexus import (
    Answer,
    Request,
    ToolContext,
    answer_declined,
    create_client,
    create_toolkit,
    pending,
    tool,
)

HOST = sys.argv[1]


# --8<-- [start:tool]
@tool
def deploy(environment: str, ctx: ToolContext = None):
    """Deploy the current build to an environment."""
    if ctx is None or ctx.answer is None:
        return pending(kind="approval", id=f"deploy-{environment}",
                       prompt=f"Deploy the current build to {environment}?")
    approver = ctx.answer.data["approver"]
    return f"deployed to {environment}, approved by {approver}"
# --8<-- [end:tool]


# --8<-- [start:approver]
def approver(request: Request) -> Answer:
    """Written for deploy approvals: dana approves whatever she is shown."""
    print(f"  approver got kind={request.kind!r} id={request.id!r}: "
          f"{request.prompt}")
    return Answer(id=request.id, ok=True, data={"approver": "dana"})
# --8<-- [end:approver]


# --8<-- [start:by-kind]
def by_kind(request: Request) -> Answer:
    """Answer only the kinds this host raises; decline the rest."""
    if request.kind != "approval":
        print(f"  not a request this host raises: "
              f"kind={request.kind!r}")
        return answer_declined(request.id)
    return approver(request)
# --8<-- [end:by-kind]


async def main() -> None:
    hosts = {"no-wait-for": None, "approver": approver, "by-kind": by_kind}
    wait_for = hosts[HOST]
    # --8<-- [start:run]
    # The built-ins come too:
    toolkit = await create_toolkit(extra_tools=[deploy])
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=wait_for,
    )
    result = await client.run("Deploy the current build.", toolkit)
    for call in result.tool_calls:
        print(f"{call['name']}: model was shown {call['output']!r}")
    print(f"status: {result.status}")
    if result.pending is not None:
        print(f"pending: kind={result.pending.kind!r} "
              f"id={result.pending.id!r}")
    # --8<-- [end:run]


asyncio.run(main())
