"""client.run(...) in Anthropic style, with no wait_for, on a turn of two
calls whose first suspends: what the transcript keeps of each call."""
import asyncio
import os

from toolnexus import ToolContext, create_client, create_toolkit, pending, tool


@tool
async def ask_region(name: str, ctx: ToolContext = None):
    """Ask a person which region a database goes to."""
    print(f"  ask_region({name}) suspends")
    return pending(
        kind="input", id=f"region-{name}", prompt=f"Which region for {name}?"
    )


@tool
async def list_regions() -> str:
    """List the regions."""
    print("  list_regions returns")
    return "eu-central-1, us-east-1"


async def main() -> None:
    toolkit = await create_toolkit(
        extra_tools=[ask_region, list_regions], builtins=False
    )
    client = create_client(  # no wait_for: the run halts on the suspension
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="anthropic",
        model="claude-3-5-haiku-latest",
    )
    result = await client.run("Where should the orders database go?", toolkit)
    print(f"status: {result.status}, pending: {result.pending.id}")
    used, answered = [], []
    for message in result.messages:
        content = message["content"]
        for block in content if isinstance(content, list) else []:
            if block.get("type") == "tool_use":
                used.append(block["id"])
            elif block.get("type") == "tool_result":
                answered.append(block["tool_use_id"])
    print(f"tool_use blocks: {used}; tool_result blocks: {answered}")


asyncio.run(main())
