"""A2A: the served side swallows a TaskStore that fails to save the final
state, and an on_task that raises. Peers then see "working" for good, and
nothing is logged. With the argument "good-store" only on_task fails: peers
see "input-required", and still nothing is logged."""
import asyncio
import contextlib
import io
import os
import sys

from toolnexus import InMemoryTaskStore, create_client

from scheduler import TaskEvents, get_task, said, scheduler_toolkit, send


# --8<-- [start:store]
class FullDiskStore(InMemoryTaskStore):
    """Saves a task while it is submitted or working, then the disk is
    full."""

    async def save(self, task: dict) -> None:
        if task["status"]["state"] not in ("submitted", "working"):
            raise OSError("disk full")
        await super().save(task)
# --8<-- [end:store]


async def main() -> None:
    toolkit = await scheduler_toolkit()
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
    )
    events = TaskEvents()
    good = sys.argv[1:] == ["good-store"]
    store = InMemoryTaskStore() if good else FullDiskStore()
    # --8<-- [start:on-task]
    def on_task(event: dict) -> None:
        events.on_task(event)
        raise RuntimeError("could not park the Request")  # a host bug

    server_log = io.StringIO()
    with contextlib.redirect_stderr(server_log):
        handle = await toolkit.serve(
            "127.0.0.1:0", client=client, on_task=on_task,
            a2a={"name": "scheduler", "store": store},
        )
        url = handle.url + "/"
        try:
            task = await send(url, "Book a meeting about the launch.")
            event = await events.finished(task["id"])
            print(f"on_task was told: {event['state']}")
            print(f"GetTask says: {said(await get_task(url, task['id']))}")
        finally:
            await handle.stop()
    print(f"written to stderr meanwhile: {server_log.getvalue()!r}")
    # --8<-- [end:on-task]


asyncio.run(main())
