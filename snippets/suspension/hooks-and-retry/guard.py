"""A before_tool guard, and the approved re-run that never passes through it.

Usage: python guard.py trusting|rechecked freeze|calm

The first argument picks the host's wait_for: "trusting" returns the
person's Answer as it is, "rechecked" applies the guard's rule again after
the person has answered. The second says whether a deploy freeze begins
while the person is deciding.
"""
import asyncio
import os
import sys

from toolnexus import (
    Answer,
    Request,
    ToolContext,
    ToolResult,
    answer_declined,
    create_client,
    create_toolkit,
    pending,
    tool,
)

HOST, WHILE_DECIDING = sys.argv[1], sys.argv[2]
freeze = {"on": False}


# --8<-- [start:tool]
@tool
def deploy(environment: str, ctx: ToolContext = None):
    """Deploy the current build to an environment."""
    if ctx is None or ctx.answer is None:
        return pending(kind="approval", id=f"deploy-{environment}",
                       prompt=f"Deploy the current build to {environment}?")
    print(f"  deploy runs: {environment}, freeze on: {freeze['on']}")
    approver = ctx.answer.data["approver"]
    return f"deployed to {environment}, approved by {approver}"
# --8<-- [end:tool]


# --8<-- [start:guard]
SHORT_NAMES = {"prod": "production"}


def freeze_rule() -> str | None:
    """The one rule: why a deploy may not happen now, or None."""
    return "a deploy freeze is on" if freeze["on"] else None


def before_tool(event: dict):
    """Refuse deploys during a freeze; spell short names out."""
    print(f"  before_tool: {event['name']} {event['args']}")
    refused = freeze_rule()
    if refused:
        return {"result": ToolResult(output=f"refused: {refused}",
                                     is_error=True)}
    environment = event["args"]["environment"]
    environment = SHORT_NAMES.get(environment, environment)
    return {"args": {"environment": environment}}
# --8<-- [end:guard]


# --8<-- [start:person]
def person_decides(request: Request) -> Answer:
    """Dana approves; a freeze may be announced while she decides."""
    if WHILE_DECIDING == "freeze":
        freeze["on"] = True
    print(f"  dana approves: {request.prompt} (freeze on: {freeze['on']})")
    return Answer(id=request.id, ok=True, data={"approver": "dana"})
# --8<-- [end:person]


# --8<-- [start:recheck]
def rechecked(request: Request) -> Answer:
    """The person's Answer, unless the guard's rule now refuses."""
    answer = person_decides(request)
    refused = freeze_rule()
    if refused:
        print(f"  host: {refused}, so the approval is not passed on")
        return answer_declined(request.id)
    return answer
# --8<-- [end:recheck]


async def main() -> None:
    toolkit = await create_toolkit(extra_tools=[deploy], builtins=False)
    # --8<-- [start:run]
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        hooks={"before_tool": before_tool},
        wait_for=rechecked if HOST == "rechecked" else person_decides,
    )
    result = await client.run("Ship the build to prod.", toolkit)
    for call in result.tool_calls:
        print(f"{call['name']} {call['args']}: "
              f"model was shown {call['output']!r}")
    print(f"status: {result.status}")
    # --8<-- [end:run]


asyncio.run(main())
