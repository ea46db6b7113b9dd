"""The user presses stop while a reviewer is deciding. The first argument
picks the wait_for: "unaware" ignores the cancel token and approves,
"watching" gives up as soon as the token is set."""
import asyncio
import os
import sys

from toolnexus import (
    Answer,
    Request,
    RunCancelled,
    ToolContext,
    create_client,
    create_toolkit,
    pending,
    tool,
)

stop = asyncio.Event()  # the host's stop button, passed to run as `cancel`


# --8<-- [start:tool]
@tool
async def deploy(environment: str, ctx: ToolContext = None):
    """Deploy the current build to an environment."""
    if ctx is None or ctx.answer is None:
        print(f"deploy suspends; ctx={ctx!r}")
        return pending(
            kind="approval",
            id=f"deploy-{environment}",
            prompt=f"Deploy the current build to {environment}?",
        )
    approver = ctx.answer.data["approver"]
    print(
        f"deploy acts: {environment}, approved by {approver};"
        f" stop pressed: {stop.is_set()}, ctx.signal={ctx.signal!r},"
        f" ctx.timeout={ctx.timeout!r}"
    )
    return f"deployed to {environment}"
# --8<-- [end:tool]


# --8<-- [start:unaware]
def unaware_reviewer(request: Request) -> Answer:
    """Approves; meanwhile the user has pressed stop."""
    stop.set()  # pressed while the reviewer was deciding
    print(f"reviewer approves; stop pressed: {stop.is_set()}")
    return Answer(id=request.id, ok=True, data={"approver": "dana"})
# --8<-- [end:unaware]


# --8<-- [start:watching]
async def watching_reviewer(request: Request) -> Answer:
    """Waits for the person or for the stop button, whichever comes first."""
    person = asyncio.Event()  # set by your UI when the person answers
    asyncio.get_running_loop().call_soon(stop.set)  # the user presses stop
    waits = [
        asyncio.ensure_future(person.wait()),
        asyncio.ensure_future(stop.wait()),
    ]
    await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for w in waits:
        w.cancel()
    if stop.is_set():
        print("wait_for gives up: stop pressed")
        return Answer(id=request.id, ok=False, reason="cancelled")
    return Answer(id=request.id, ok=True, data={"approver": "dana"})  # not run
# --8<-- [end:watching]


async def main(mode: str) -> None:
    toolkit = await create_toolkit(extra_tools=[deploy], builtins=False)
    reviewers = {"unaware": unaware_reviewer, "watching": watching_reviewer}
    reviewer = reviewers[mode]
    # --8<-- [start:run]
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=reviewer,
    )
    try:
        await client.run("Ship the build to staging.", toolkit, cancel=stop)
    except RunCancelled as e:
        print(f"raised {type(e).__name__}: {e}")
    # --8<-- [end:run]


asyncio.run(main(sys.argv[1]))
