"""The fix: each tool call asks one question; the second step is a second
tool."""
import asyncio
import os

from toolnexus import ToolContext, create_client, create_toolkit, pending, tool

from suspends_again import reviewer


# --8<-- [start:tools]
@tool
def transfer(amount: int, ctx: ToolContext = None):
    """Start a transfer. Needs an approval; then call confirm_transfer."""
    if ctx is None or ctx.answer is None:
        return pending(
            kind="approval",
            id=f"transfer-{amount}",
            prompt=f"Approve a transfer of {amount} EUR?",
        )
    return (
        "approved; a one-time code was sent,"
        f" now call confirm_transfer for {amount} EUR"
    )


@tool
def confirm_transfer(amount: int, ctx: ToolContext = None):
    """Finish an approved transfer with the one-time code."""
    if ctx is None or ctx.answer is None:
        return pending(
            kind="input",
            id=f"otp-{amount}",
            prompt="Enter the one-time code sent to your phone.",
        )
    return f"transferred {amount} EUR (code {ctx.answer.data['code']})"
# --8<-- [end:tools]


async def main() -> None:
    toolkit = await create_toolkit(
        extra_tools=[transfer, confirm_transfer], builtins=False
    )
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=reviewer,  # the same wait_for as before
    )
    result = await client.run("Transfer 500 EUR to the supplier.", toolkit)
    print(f"status: {result.status}, pending: {result.pending}")
    print(f"model said: {result.text}")


if __name__ == "__main__":
    asyncio.run(main())
