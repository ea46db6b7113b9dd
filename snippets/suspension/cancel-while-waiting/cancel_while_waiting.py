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
# One future per open Request, keyed by its id. Your UI resolves the future
# with the person's Answer (approve or refuse) when they reply.
replies: dict[str, asyncio.Future] = {}


async def watching_reviewer(request: Request) -> Answer:
    """Waits for the person's Answer or for the stop button, whichever is
    first."""
    loop = asyncio.get_running_loop()
    reply = replies.setdefault(request.id, loop.create_future())
    stopped = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait(
            [reply, stopped], return_when=asyncio.FIRST_COMPLETED
        )
    finally:
        stopped.cancel()
        replies.pop(request.id, None)
    if stop.is_set():
        reply.cancel()
        print("wait_for gives up: stop pressed")
        return Answer(id=request.id, ok=False, reason="cancelled")
    return reply.result()  # not run
# --8<-- [end:watching]


# --8<-- [start:press-stop]
async def user_presses_stop(request: Request) -> Answer:
    """The demo's user: presses stop as soon as the question is open."""
    asyncio.get_running_loop().call_soon(stop.set)
    return await watching_reviewer(request)
# --8<-- [end:press-stop]


async def main(mode: str) -> None:
    toolkit = await create_toolkit(extra_tools=[deploy], builtins=False)
    reviewers = {"unaware": unaware_reviewer, "watching": user_presses_stop}
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
