"""client.stream(...) on a turn whose tool suspends: the events a host
sees, and the transcript it is left with. argv[1]: none (no wait_for),
wait (a wait_for that answers) or decline (a wait_for that refuses)."""
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

ASKED = asyncio.Event()  # set when ask_region has suspended
SEEN_PENDING = False  # set by the stream loop on the pending event


# --8<-- [start:tools]
@tool
async def ask_region(name: str, ctx: ToolContext = None):
    """Ask a person which region a database goes to."""
    if ctx is None or ctx.answer is None:
        print(f"  ask_region({name}) suspends")
        ASKED.set()
        return pending(
            kind="input",
            id=f"region-{name}",
            prompt=f"Which region for {name}?",
        )
    print(f"  ask_region({name}) runs again with the Answer")
    return f"{name} goes to {ctx.answer.data['region']}"


@tool
async def list_regions() -> str:
    """List the regions. (Finishes only once ask_region has suspended.)"""
    await ASKED.wait()
    print(f"  list_regions finishes; pending event seen yet: {SEEN_PENDING}")
    return "eu-central-1, us-east-1"
# --8<-- [end:tools]


def answer(request: Request) -> Answer:
    print(f"  wait_for({request.id})")
    return Answer(id=request.id, ok=True, data={"region": "eu-west-1"})


def refuse(request: Request) -> Answer:
    print(f"  wait_for({request.id}) declines")
    return Answer(id=request.id, ok=False, reason="declined")


async def main(mode: str) -> None:
    global SEEN_PENDING
    toolkit = await create_toolkit(
        extra_tools=[ask_region, list_regions], builtins=False
    )
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for={"wait": answer, "decline": refuse}.get(mode),
    )
    # --8<-- [start:stream]
    kinds = []
    prompt = "Where should the orders database go?"
    async for event in client.stream(prompt, toolkit):
        kind = event["type"]
        kinds.append(kind)
        if kind == "tool_call":
            print(f"tool_call {event['name']}")
        elif kind == "pending":
            SEEN_PENDING = True
            print(f"pending {event['request'].id}")
        elif kind == "tool_result":
            print(
                f"tool_result {event['name']}: {event['output']!r}"
                f" is_error={event['is_error']}"
            )
        elif kind == "done":
            result = event["result"]
            print(f"done: {result.status}")
        else:
            print(kind)
    print(f"events: {', '.join(kinds)}")
    # --8<-- [end:stream]
    # --8<-- [start:transcript]
    called = [c["id"] for m in result.messages if m["role"] == "assistant"
              for c in m.get("tool_calls") or []]
    answered = [m["tool_call_id"] for m in result.messages
                if m["role"] == "tool"]
    print(f"tool calls: {called}; answered in the transcript: {answered}")
    # --8<-- [end:transcript]


asyncio.run(main(sys.argv[1]))
