"""Pitfall: a retried tool that suspends again; the model is shown the first
prompt."""
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
def transfer(amount: int, ctx: ToolContext = None):
    """Transfer money. Needs an approval, then a one-time code."""
    if ctx is None or ctx.answer is None:
        return pending(
            kind="approval",
            id=f"transfer-{amount}",
            prompt=f"Approve a transfer of {amount} EUR?",
        )
    if "code" not in ctx.answer.data:
        # Approved; now a second question, with its own id and prompt.
        return pending(
            kind="input",
            id=f"otp-{amount}",
            prompt="Enter the one-time code sent to your phone.",
        )
    # The one-time code never arrives: that is the pitfall.
    return f"transferred {amount} EUR"  # not run
# --8<-- [end:tool]


# --8<-- [start:wait-for]
def reviewer(request: Request) -> Answer:
    print(f"wait_for got {request.id}: {request.prompt}")
    if request.kind == "approval":
        return Answer(id=request.id, ok=True, data={"approved": True})
    return Answer(id=request.id, ok=True, data={"code": "493817"})
# --8<-- [end:wait-for]


async def main() -> None:
    toolkit = await create_toolkit(extra_tools=[transfer], builtins=False)
    # --8<-- [start:run]
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=reviewer,
    )
    result = await client.run("Transfer 500 EUR to the supplier.", toolkit)
    print(f"status: {result.status}, pending: {result.pending}")
    print(f"model said: {result.text}")
    # --8<-- [end:run]


if __name__ == "__main__":  # one_question_per_call.py imports reviewer
    asyncio.run(main())
