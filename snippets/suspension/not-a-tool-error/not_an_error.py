"""A suspension is not a tool error: what on_metric and an after_tool hook see.

Usage: python not_an_error.py approves | declines | no-approver | no-wait-for
"""
import asyncio
import os
import sys

from toolnexus import (
    Answer,
    Request,
    create_client,
    create_toolkit,
    pending,
    pending_of,
    tool,
)


# --8<-- [start:tool]
@tool
def delete_branch(branch: str, ctx=None):
    """Delete a git branch of the web repository."""
    if branch == "main":
        # A real tool error.
        raise ValueError("main is protected and cannot be deleted")
    if ctx is None or ctx.answer is None:
        return pending(
            kind="approval",
            id=f"delete-{branch}",
            prompt=f"Delete branch {branch}?",
        )
    # Approved, but nobody is named: ask again.
    if "approver" not in (ctx.answer.data or {}):
        return pending(
            kind="approval",
            id=f"delete-{branch}-who",
            prompt=f"Who approves deleting {branch}?",
        )
    return f"deleted {branch}, approved by {ctx.answer.data['approver']}"
# --8<-- [end:tool]


# --8<-- [start:observers]
def on_metric(event: dict) -> None:
    """Receives every metric event; only the per-call "tool" events are
    printed."""
    if event["event"] == "tool":
        print(
            f"  on_metric: tool={event['tool']}"
            f" is_error={event['is_error']}"
            f" pending={event.get('pending', False)}"
        )


def after_tool(event: dict) -> None:
    """Observes each result that reaches after_tool; returns None, so nothing
    is replaced."""
    result = event["result"]
    print(
        f"  after_tool: {event['name']}{event['args']}"
        f" is_error={result.is_error}"
        f" suspended={pending_of(result) is not None}"
        f" output={result.output!r}"
    )
# --8<-- [end:observers]


def reviewer(approve: bool, named: bool = True):
    def wait_for(request: Request) -> Answer:
        print(f"  wait_for: {request.prompt}")
        if approve:
            return Answer(
                id=request.id,
                ok=True,
                data={"approver": "dana"} if named else {},
            )
        return Answer(id=request.id, ok=False, reason="declined")

    return wait_for


async def main(mode: str) -> None:
    toolkit = await create_toolkit(extra_tools=[delete_branch], builtins=False)
    wait_for = {
        "approves": reviewer(True),
        "declines": reviewer(False),
        "no-approver": reviewer(True, named=False),
        "no-wait-for": None,
    }[mode]
    # --8<-- [start:run]
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        hooks={"after_tool": after_tool},
        on_metric=on_metric,
        wait_for=wait_for,
    )
    task = "Clean up: delete main, then feature-x."
    result = await client.run(task, toolkit)
    print(f"status: {result.status}")
    for call in result.tool_calls:
        print(
            f"tool call {call['name']}{call['args']}:"
            f" is_error={call['is_error']} {call['output']!r}"
        )
    shown = [m["content"] for m in result.messages if m["role"] == "tool"]
    print(f"tool messages: {shown}")
    # --8<-- [end:run]


asyncio.run(main(sys.argv[1]))
