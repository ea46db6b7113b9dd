"""A2A: a served run that raises ends its task "failed", and on_task gets
result=None: no RunResult, so no usage and no Request."""
import asyncio
import os

from toolnexus import Answer, Request, create_client

from scheduler import TaskEvents, get_task, said, scheduler_toolkit, send


async def main() -> None:
    toolkit = await scheduler_toolkit()
    # --8<-- [start:failed]
    def wait_for(request: Request) -> Answer:
        raise RuntimeError("the approval service is down")

    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=wait_for,  # raising aborts the served run
    )
    events = TaskEvents()
    handle = await toolkit.serve(
        "127.0.0.1:0", client=client, on_task=events.on_task,
        a2a={"name": "scheduler"},
    )
    url = handle.url + "/"
    try:
        task = await send(url, "Book a meeting about the launch.")
        event = await events.finished(task["id"])
        print(f"on_task: state={event['state']}, result={event['result']}")
        print(f"GetTask says: {said(await get_task(url, task['id']))}")
    finally:
        await handle.stop()
    # --8<-- [end:failed]


asyncio.run(main())
