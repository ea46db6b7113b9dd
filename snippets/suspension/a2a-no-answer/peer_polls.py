"""A2A: a toolnexus peer calls a served agent whose task ends input-required.
It keeps polling, because input-required is not a final state for it, until
its budget runs out; the question never reaches the calling side."""
import asyncio
import os

from toolnexus import agent, create_client, create_toolkit

from scheduler import TaskEvents, scheduler_toolkit


def model_client():
    return create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
    )


async def main() -> None:
    served = await scheduler_toolkit()
    events = TaskEvents()
    handle = await served.serve(
        "127.0.0.1:0", client=model_client(), on_task=events.on_task,
        a2a={"name": "scheduler"},
    )
    try:
        # --8<-- [start:peer]
        card = handle.url + "/.well-known/agent-card.json"
        # timeout: the whole budget of one call, in ms (300 000 unless set).
        # poll_every: ms between GetTask calls (1000 unless set); 0 here, so
        # that this example polls without sleeping.
        scheduler = agent(card, timeout=500, poll_every=0)
        caller = await create_toolkit(agents=[scheduler], builtins=False)
        print(f"the caller's tools: {[t.name for t in caller.tools()]}")
        result = await model_client().run("Book the launch meeting.", caller)
        print(f"status: {result.status}, pending: {result.pending}")
        print(f"model said: {result.text}")
        call = result.tool_calls[0]
        print(f"last state the caller saw: {call['metadata']['state']}")
        # --8<-- [end:peer]
        [served_side] = events.seen()
        print(f"the served side halted: {served_side['state']},"
              f" with {served_side['result'].pending.prompt!r}")
    finally:
        await handle.stop()


asyncio.run(main())
