"""A run that outlives the client's timeout_ms budget raises RunTimeout: it
returns no RunResult, so there is no "incomplete" status and no limit to
read."""
import asyncio
import os
import time

from toolnexus import RunTimeout, create_client, create_toolkit, tool


@tool
def slow_count(item: str):
    """Count an item slowly: longer than the whole run's budget."""
    time.sleep(1.5)
    return f"{item}: 42 on the shelf"


async def main() -> None:
    toolkit = await create_toolkit(extra_tools=[slow_count], builtins=False)
    # --8<-- [start:deadline]
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        timeout_ms=1000,
    )
    try:
        await client.run("Count the bolts.", toolkit)
    except RunTimeout as e:
        # The message's wording differs between releases; the type is what
        # a host catches.
        is_timeout_error = isinstance(e, TimeoutError)
        print(f"raised {type(e).__name__}, a TimeoutError: {is_timeout_error}")
    else:
        print("the run returned a RunResult")
    # --8<-- [end:deadline]


asyncio.run(main())
