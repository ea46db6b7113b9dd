"""Pitfall: the loop does not compare Answer.id with Request.id, so a wrong
Answer is used."""
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
def refund(order: str, ctx: ToolContext = None):
    """Refund an order. Every refund needs a human's approval."""
    if ctx is None or ctx.answer is None:
        return pending(
            kind="approval",
            id=f"refund-{order}",
            prompt=f"Refund order {order}?",
        )
    return (
        f"refunded order {order} (answer {ctx.answer.id},"
        f" approved by {ctx.answer.data['approver']})"
    )
# --8<-- [end:tool]


# --8<-- [start:careless]
def next_answer_in(inbox: list):
    """Careless: hands over whichever approval arrived first, whatever it
    was for."""

    def wait_for(request: Request) -> Answer:
        answer = inbox.pop(0)
        print(f"request {request.id} got answer {answer.id}")
        return answer

    return wait_for
# --8<-- [end:careless]


# --8<-- [start:checked]
def answer_for(approvals: dict):
    """Checked: looks the Answer up by the Request's id; no match means no
    approval."""

    def wait_for(request: Request) -> Answer:
        answer = approvals.get(request.id)
        if answer is None:
            print(f"request {request.id}: no approval on file")
            return Answer(id=request.id, ok=False, reason="cancelled")
        return answer  # not run: no approval on file matches here

    return wait_for
# --8<-- [end:checked]


async def main() -> None:
    toolkit = await create_toolkit(extra_tools=[refund], builtins=False)
    # --8<-- [start:run]
    # Dana approved refunding order A1. Nobody approved B2.
    approved_a1 = Answer(id="refund-A1", ok=True, data={"approver": "dana"})
    careless = next_answer_in([approved_a1])
    checked = answer_for({approved_a1.id: approved_a1})
    for wait_for in (careless, checked):
        client = create_client(
            base_url=os.environ["OPENAI_BASE_URL"],
            api_key=os.environ["OPENAI_API_KEY"],
            style="openai",
            model="gpt-4o-mini",
            wait_for=wait_for,
        )
        result = await client.run("Refund order B2.", toolkit)
        print(f"model said: {result.text}")
    # --8<-- [end:run]


asyncio.run(main())
