"""max_turns runs out while the model writes a sentence beside each tool
call: the client style (the first argument, "openai" or "anthropic")
decides the status. A second argument "stream" takes the result from the
stream's done event instead of from run."""
import asyncio
import os
import sys

from toolnexus import create_client, create_toolkit, tool


@tool
def count_stock(item: str):
    """Count how many of an item are on the shelf."""
    return f"{item}: 42 on the shelf"


async def main(style: str, mode: str) -> None:
    toolkit = await create_toolkit(extra_tools=[count_stock], builtins=False)
    # --8<-- [start:budget]
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style=style,
        model="gpt-4o-mini",
        max_turns=2,
    )
    prompt = "Count every item in the warehouse."
    if mode == "stream":
        async for event in client.stream(prompt, toolkit):
            if event["type"] == "done":
                result = event["result"]
    else:
        result = await client.run(prompt, toolkit)
    print(
        f"[{style} {mode}] status={result.status} limit={result.limit}"
        f" turns={result.turns}"
    )
    print(f"  text={result.text!r}")
    print(f"  last message: {result.messages[-1]['role']}")
    # --8<-- [end:budget]


asyncio.run(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "run"))
