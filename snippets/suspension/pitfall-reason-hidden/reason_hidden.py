"""Pitfall: Answer.reason never reaches the model; every refusal reads the
same."""
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


@tool
def delete_branch(name: str, ctx: ToolContext = None):
    """Delete a git branch, once a human has approved it."""
    if ctx is None or ctx.answer is None:
        return pending(
            kind="approval",
            id=f"delete-{name}",
            prompt=f"Delete branch {name}?",
        )
    return f"deleted branch {name}"  # not run


# --8<-- [start:refuse]
def refuse(reason: str):
    """A wait_for that refuses every Request, giving `reason` as the why."""

    def wait_for(request: Request) -> Answer:
        return Answer(id=request.id, ok=False, reason=reason)

    return wait_for
# --8<-- [end:refuse]


async def main() -> None:
    toolkit = await create_toolkit(extra_tools=[delete_branch], builtins=False)
    # --8<-- [start:run]
    # declined: the reviewer said no; cancelled: the reviewer closed the
    # dialog; expired: nobody answered in time.
    for reason in ("declined", "cancelled", "expired"):
        client = create_client(
            base_url=os.environ["OPENAI_BASE_URL"],
            api_key=os.environ["OPENAI_API_KEY"],
            style="openai",
            model="gpt-4o-mini",
            wait_for=refuse(reason),
        )
        result = await client.run("Delete the old-ui branch.", toolkit)
        print(f"{reason:>9} -> model said: {result.text}")
    # --8<-- [end:run]


asyncio.run(main())
