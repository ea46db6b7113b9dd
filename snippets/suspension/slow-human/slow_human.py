"""A reviewer slower than the client's timeout_ms budget: the approved tool
still acts, then the run raises RunTimeout and nothing is saved. The first
argument is the client style ("openai" or "anthropic"); the second, "budget"
or "person-limit", says what is timed: the whole run, or the person alone."""
import asyncio
import os
import sys

from toolnexus import (
    Answer,
    InMemoryConversationStore,
    Request,
    RunTimeout,
    ToolContext,
    create_client,
    create_toolkit,
    pending,
    tool,
)

# The whole run's budget, and the person's own limit. Short, so the build
# waits only this long; the budget still leaves the first request to the
# model ample time on a busy machine.
BUDGET_MS = 180
PERSON_LIMIT_S = 0.02
deployed = []


# --8<-- [start:tool]
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
    deployed.append(environment)
    print(f"deploy acts: {environment}, approved by {approver}")
    return f"deployed to {environment}, approved by {approver}"
# --8<-- [end:tool]


# --8<-- [start:reviewer]
async def slow_reviewer(request: Request) -> Answer:
    """A person who takes as long as the whole run's budget to say yes."""
    print(f"reviewer asked: {request.prompt}")
    # They are asked after the run began, so they answer after its deadline.
    await asyncio.sleep(BUDGET_MS / 1000)
    return Answer(id=request.id, ok=True, data={"approver": "dana"})
# --8<-- [end:reviewer]


# --8<-- [start:person-limit]
# One future per open Request, keyed by its id. Your UI resolves the future
# with the person's Answer (approve or refuse) when they reply.
replies: dict[str, asyncio.Future] = {}


async def limited_reviewer(request: Request) -> Answer:
    """Waits for the person's Answer up to their own limit, then lets it
    expire."""
    print(f"reviewer asked: {request.prompt}")
    loop = asyncio.get_running_loop()
    reply = replies.setdefault(request.id, loop.create_future())
    try:
        return await asyncio.wait_for(reply, timeout=PERSON_LIMIT_S)
    except asyncio.TimeoutError:
        print("no answer in time: the request expires")
        return Answer(id=request.id, ok=False, reason="expired")
    finally:
        replies.pop(request.id, None)
# --8<-- [end:person-limit]


async def main(style: str, timed: str) -> None:
    toolkit = await create_toolkit(extra_tools=[deploy], builtins=False)
    # --8<-- [start:run]
    store = InMemoryConversationStore()
    llm_calls = []

    def on_metric(event: dict) -> None:
        if event["event"] == "llm":
            llm_calls.append(event["status"])

    if timed == "budget":
        limits = {"timeout_ms": BUDGET_MS, "wait_for": slow_reviewer}
    else:
        limits = {"timeout_ms": None, "wait_for": limited_reviewer}
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style=style,
        model="gpt-4o-mini",
        store=store,
        on_metric=on_metric,
        **limits,
    )
    try:
        result = await client.ask(
            "Ship the build to staging.", toolkit, id="ticket-7"
        )
        print(f"status: {result.status}; model said: {result.text}")
    except RunTimeout as e:
        is_timeout_error = isinstance(e, TimeoutError)
        print(f"raised {type(e).__name__}, a TimeoutError: {is_timeout_error}")
    print(f"deployed: {deployed}")
    print(f"saved for ticket-7: {await store.get('ticket-7') is not None}")
    print(f"llm metric statuses: {llm_calls}")
    # --8<-- [end:run]


asyncio.run(main(sys.argv[1], sys.argv[2]))
