"""Approval gate: a deploy tool that will not act until a human says yes,
answered inline."""
import asyncio
import os

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
def deploy(environment: str, ctx: ToolContext = None):
    """Deploy the current build to an environment."""
    if ctx is None or ctx.answer is None:
        # First call: nothing has been approved yet, so suspend with a Request.
        return pending(
            kind="approval",
            id=f"deploy-{environment}",
            prompt=f"Deploy the current build to {environment}?",
            data={"environment": environment},
        )
    # Second call: the loop re-runs it with the human's Answer in ctx.answer.
    approver = ctx.answer.data["approver"]
    return f"deployed to {environment}, approved by {approver}"
# --8<-- [end:tool]


# --8<-- [start:wait-for]
def ask_reviewer(decision: bool):
    """Build a wait_for callback that answers every Request with `decision`."""

    def wait_for(request: Request) -> Answer:
        print(
            f"reviewer asked: {request.prompt}"
            f" (kind={request.kind}, id={request.id})"
        )
        if decision:
            return Answer(id=request.id, ok=True, data={"approver": "dana"})
        return Answer(id=request.id, ok=False, reason="declined")

    return wait_for
# --8<-- [end:wait-for]


async def main() -> None:
    toolkit = await create_toolkit(extra_tools=[deploy], builtins=False)
    # --8<-- [start:run]
    for decision in (True, False):
        client = create_client(
            base_url=os.environ["OPENAI_BASE_URL"],
            api_key=os.environ["OPENAI_API_KEY"],
            style="openai",
            model="gpt-4o-mini",
            wait_for=ask_reviewer(decision),
        )
        result = await client.run("Ship the build to staging.", toolkit)
        print(f"status: {result.status}")
        print(f"model said: {result.text}")
    # --8<-- [end:run]


asyncio.run(main())
