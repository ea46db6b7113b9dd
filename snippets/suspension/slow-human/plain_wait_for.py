"""A wait_for written as a plain function: the loop calls it directly, in
the thread that runs the event loop, not in a worker thread."""
import asyncio
import os
import threading

from toolnexus import (
    Answer,
    Request,
    ToolContext,
    create_client,
    create_toolkit,
    pending,
    tool,
)


@tool
async def deploy(environment: str, ctx: ToolContext = None):
    """Deploy the current build to an environment."""
    if ctx is None or ctx.answer is None:
        return pending(
            kind="approval",
            id=f"deploy-{environment}",
            prompt=f"Deploy the current build to {environment}?",
        )
    approver = ctx.answer.data["approver"]
    return f"deployed to {environment}, approved by {approver}"


# --8<-- [start:plain]
def quick_reviewer(request: Request) -> Answer:
    """A plain function that answers at once."""
    loop = asyncio.get_running_loop()  # raises off the event loop's thread
    on_loop = threading.current_thread() is LOOP_THREAD
    print(f"wait_for runs in the event loop's thread: {on_loop}")
    print(f"  its loop is running: {loop.is_running()}")
    return Answer(id=request.id, ok=True, data={"approver": "dana"})
# --8<-- [end:plain]


async def main() -> None:
    toolkit = await create_toolkit(extra_tools=[deploy], builtins=False)
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=quick_reviewer,
    )
    result = await client.run("Deploy the current build to staging.", toolkit)
    print(f"status: {result.status}; model said: {result.text}")


LOOP_THREAD = threading.current_thread()  # asyncio.run runs the loop here
asyncio.run(main())
