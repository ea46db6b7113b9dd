"""Refunds that must be approved before the return window closes.

Usage: python refund.py trusting|checked

"trusting" hands the person's Answer back without looking at expiresAt;
"checked" declines a Request whose expiresAt has passed (or cannot be
read), without asking anyone.
"""
import asyncio
import os
import sys

from toolnexus import (
    Answer,
    Request,
    answer_declined,
    create_client,
    create_toolkit,
)

from refund_tool import refund
from stale import is_stale

HOST = sys.argv[1]


# --8<-- [start:person]
def person(request: Request) -> Answer:
    """Dana is shown the prompt and approves."""
    print(f"  dana is asked: {request.prompt} "
          f"(expiresAt={request.expiresAt!r})")
    return Answer(id=request.id, ok=True, data={"approver": "dana"})
# --8<-- [end:person]


# --8<-- [start:wait-for]
def checked(request: Request) -> Answer:
    """Ask only while the Request is current; use the answer only if so."""
    if is_stale(request):
        print(f"  not asked: {request.id} is stale "
              f"(expiresAt={request.expiresAt!r})")
        return answer_declined(request.id, "expired")
    answer = person(request)
    if is_stale(request):  # the person took too long
        return answer_declined(request.id, "expired")  # not run
    return answer
# --8<-- [end:wait-for]


async def main() -> None:
    toolkit = await create_toolkit(extra_tools=[refund], builtins=False)
    # --8<-- [start:run]
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=checked if HOST == "checked" else person,
    )
    result = await client.run("Refund my order.", toolkit)
    for call in result.tool_calls:
        print(f"{call['name']} {call['args']}: "
              f"model was shown {call['output']!r}")
    print(f"status: {result.status}")
    # --8<-- [end:run]


asyncio.run(main())
