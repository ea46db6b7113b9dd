"""A2A: a peer answers an input-required task in the same contextId. The
reply becomes a new task, replayed to the model; the halted call never gets
the answer, and the first task stays input-required."""
import asyncio
import os

from toolnexus import create_client

from scheduler import TaskEvents, get_task, said, scheduler_toolkit, send


async def main() -> None:
    toolkit = await scheduler_toolkit()
    client = create_client(  # no wait_for: a suspension halts the served run
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
    )
    events = TaskEvents()
    handle = await toolkit.serve(
        "127.0.0.1:0", client=client, on_task=events.on_task,
        a2a={"name": "scheduler"},
    )
    url = handle.url + "/"
    try:
        # --8<-- [start:reply]
        first = await send(url, "Book a meeting about the launch.",
                           contextId="ctx-1")
        await events.finished(first["id"])
        print(f"task 1: {said(await get_task(url, first['id']))}")

        # The peer answers the question, naming the task and its context.
        reply = await send(url, "Tuesday", contextId="ctx-1",
                           taskId=first["id"])
        print(f"the reply made a new task: {reply['id'] != first['id']}")
        await events.finished(reply["id"])
        print(f"task 2: {said(await get_task(url, reply['id']))}")
        print(f"task 1 afterwards: {said(await get_task(url, first['id']))}")
        # --8<-- [end:reply]
    finally:
        await handle.stop()


asyncio.run(main())
