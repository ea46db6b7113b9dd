"""client.stream(...) when the approved retry of a call suspends again: the
loop turns it into an "unresolved:" result, and the stream yields no second
pending event."""
import asyncio
import os

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
async def ask_region(name: str, ctx: ToolContext = None):
    """Ask a person which region a database goes to; it asks again even
    when it gets an Answer (a careless tool)."""
    answered = ctx is not None and ctx.answer is not None
    print(f"  ask_region({name}) suspends, Answer given: {answered}")
    return pending(
        kind="input", id=f"region-{name}", prompt=f"Which region for {name}?"
    )


def answer(request: Request) -> Answer:
    print(f"  wait_for({request.id})")
    return Answer(id=request.id, ok=True)  # approved, with no data


async def main() -> None:
    toolkit = await create_toolkit(extra_tools=[ask_region], builtins=False)
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=answer,
    )
    kinds = []
    prompt = "Where should the orders database go?"
    async for event in client.stream(prompt, toolkit):
        kind = event["type"]
        kinds.append(kind)
        if kind == "pending":
            print(f"pending {event['request'].id}")
        elif kind == "tool_result":
            print(
                f"tool_result {event['name']}: {event['output']!r}"
                f" is_error={event['is_error']}"
            )
        elif kind == "done":
            print(f"done: {event['result'].status}")
    print(f"events: {', '.join(kinds)}")


asyncio.run(main())
