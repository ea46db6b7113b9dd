"""Two approvals in one turn: the two calls run side by side, but wait_for
is asked about them one at a time, in the order the model made the calls.
The first argument is the client style, "openai" or "anthropic"."""
import asyncio
import os
import sys

from toolnexus import (
    Answer,
    Request,
    ToolContext,
    create_client,
    create_toolkit,
    pending,
    tool,
)

web_suspended = asyncio.Event()
open_questions = set()
most_open = 0


# --8<-- [start:tool]
@tool
async def deploy(service: str, ctx: ToolContext = None):
    """Deploy a service to production."""
    if ctx is None or ctx.answer is None:
        if service == "api":
            # api's first run waits for web's to suspend: it gets past this
            # line only if the two calls run at the same time (else it fails
            # after 2 s).
            await asyncio.wait_for(web_suspended.wait(), timeout=2)
        print(f"deploy {service} suspends")
        if service == "web":
            web_suspended.set()
        return pending(
            kind="approval",
            id=f"deploy-{service}",
            prompt=f"Deploy {service} to production?",
        )
    print(f"deploy {service} acts")
    return f"deployed {service}, approved by {ctx.answer.data['approver']}"
# --8<-- [end:tool]


# --8<-- [start:reviewer]
REVIEWERS = {"deploy-api": "dana", "deploy-web": "lee"}


async def reviewer(request: Request) -> Answer:
    """Each service has its own reviewer; each takes a while to answer."""
    global most_open
    open_questions.add(request.id)
    most_open = max(most_open, len(open_questions))
    print(f"asking {REVIEWERS[request.id]}: {request.prompt}")
    # Give the event loop a few turns while the person decides: if the loop
    # asked its questions side by side, the other one would be asked now.
    for _ in range(5):
        await asyncio.sleep(0)
    open_questions.discard(request.id)
    print(f"{REVIEWERS[request.id]} approves")
    approver = REVIEWERS[request.id]
    return Answer(id=request.id, ok=True, data={"approver": approver})
# --8<-- [end:reviewer]


async def main(style: str) -> None:
    toolkit = await create_toolkit(extra_tools=[deploy], builtins=False)
    # --8<-- [start:run]
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style=style,
        model="gpt-4o-mini",
        wait_for=reviewer,
    )
    result = await client.run("Deploy api and web.", toolkit)
    print(f"status: {result.status}")
    print(f"questions open at once, at most: {most_open}")
    # --8<-- [end:run]


asyncio.run(main(sys.argv[1]))
