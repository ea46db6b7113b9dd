"""A conversation whose second ask runs out of turns. In OpenAI style the
run's text is the latest assistant message with text, and the history the
run continues counts, so the second ask reports done with the first ask's
answer."""
import asyncio
import os

from toolnexus import create_client, create_toolkit, tool


@tool
def count_stock(item: str):
    """Count how many of an item are on the shelf."""
    return f"{item}: 42 on the shelf"


async def main() -> None:
    toolkit = await create_toolkit(extra_tools=[count_stock], builtins=False)
    # --8<-- [start:history]
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        max_turns=1,
    )
    first = await client.ask("How many widgets?", toolkit, id="stock-1")
    print(f"first ask: status={first.status} text={first.text!r}")
    second = await client.ask("Now count the bolts.", toolkit, id="stock-1")
    print(
        f"second ask: status={second.status} limit={second.limit}"
        f" turns={second.turns}"
    )
    print(f"  text={second.text!r}")
    print(f"  last message: {second.messages[-1]['role']}")
    # --8<-- [end:history]


asyncio.run(main())
