"""A run that outlives the client's timeout_ms budget raises RunTimeout: it
returns no RunResult, so there is no "incomplete" status and no limit to
read."""
import asyncio
import os

from toolnexus import RunTimeout, create_client, create_toolkit, tool

# The whole run's budget. Short, so the build waits only this long; it still
# leaves the first request to the model ample time on a busy machine.
BUDGET_MS = 180


@tool
async def slow_count(item: str):
    """Count an item slowly: as long as the whole run's budget."""
    # The run began before this tool started, so when it ends, the deadline
    # has passed.
    await asyncio.sleep(BUDGET_MS / 1000)
    return f"{item}: 42 on the shelf"


async def main() -> None:
    toolkit = await create_toolkit(extra_tools=[slow_count], builtins=False)
    # --8<-- [start:deadline]
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        timeout_ms=BUDGET_MS,
    )
    try:
        await client.run("Count the bolts.", toolkit)
    except RunTimeout as e:
        # The message's wording differs between releases; the type is what
        # a host catches.
        is_timeout_error = isinstance(e, TimeoutError)
        print(f"raised {type(e).__name__}, a TimeoutError: {is_timeout_error}")
    # --8<-- [end:deadline]


asyncio.run(main())
