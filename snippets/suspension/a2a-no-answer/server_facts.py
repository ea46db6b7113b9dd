"""What the A2A server does that the page's other programs leave out: the
Agent Card's fields, a file store, a method it does not answer, a run cut
short by max_turns, what a context keeps, a call made on the serving loop,
and the port after stop."""
import asyncio
import json
import os
import socket
import urllib.request
from pathlib import Path

from toolnexus import SkillDef, create_client, create_toolkit, tool

from scheduler import TaskEvents, book_meeting, get_task, rpc, said, send


@tool
def list_rooms() -> str:
    """List the meeting rooms."""
    return "Lisbon, Porto"


def get_json(url: str, timeout: float = 10) -> dict:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return json.load(response)


async def main() -> None:
    skills = [
        SkillDef(name="meetings", description="Books meetings.",
                 content="Use book_meeting."),
        SkillDef(name="rooms", description="Lists rooms.",
                 content="Use list_rooms."),
    ]
    toolkit = await create_toolkit(
        extra_tools=[book_meeting, list_rooms], skills=skills, builtins=False
    )
    client = create_client(  # no wait_for; one model turn per run
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        max_turns=1,
    )
    events = TaskEvents()
    handle = await toolkit.serve(
        "127.0.0.1:0", client=client, on_task=events.on_task,
        a2a={
            "name": "scheduler",
            "description": "Books meetings.",
            "version": "2.1.0",
            "provider": {"organization": "Example",
                         "url": "https://example.com"},
            "skills": ["meetings"],
            "store": "file:tasks",
        },
    )
    url = handle.url + "/"
    try:
        card_url = handle.url + "/.well-known/agent-card.json"
        card = await asyncio.to_thread(get_json, card_url)
        fields = {k: card[k] for k in ("name", "description", "version")}
        print(f"card: {fields}, provider: {card['provider']['organization']}")
        print(f"card skills: {[s['id'] for s in card['skills']]}"
              f" of {[s.name for s in skills]}")

        # The model calls list_rooms in its one turn: max_turns cuts it short.
        task = await send(url, "List the rooms.")
        event = await events.finished(task["id"])
        task = await get_task(url, task["id"])
        print(f"cut short: run {event['result'].status},"
              f" task {task['status']['state']},"
              f" answer {task['artifacts'][0]['parts'][0]['text']!r}")
        files = [p.name for p in Path("tasks").iterdir()]
        print(f"tasks/ holds this task's file: {task['id'] + '.json' in files}")

        reply = await rpc(url, "CancelTask", {"id": task["id"]})
        print(f"CancelTask: {reply['error']['message']}")

        # Two messages in one context: the client's store keeps the context.
        first = await send(url, "Book a meeting about the launch.",
                           contextId="ctx-1")
        await events.finished(first["id"])
        second = await send(url, "Tuesday", contextId="ctx-1")
        await events.finished(second["id"])
        print(f"task 2: {said(await get_task(url, second['id']))}")
        kept = await client.store.get("ctx-1")
        users = [m["content"] for m in kept if m["role"] == "user"]
        print(f"user turns kept for ctx-1: {users}")

        # Called on the serving loop itself, GetTask blocks the loop that the
        # server needs in order to read the store.
        call = {"jsonrpc": "2.0", "id": 1, "method": "GetTask",
                "params": {"id": task["id"]}}
        request = urllib.request.Request(
            url, data=json.dumps(call).encode(),
            headers={"Content-Type": "application/json"},
        )
        try:
            urllib.request.urlopen(request, timeout=0.5).close()
            print("GetTask on the serving loop: answered")  # not run
        except OSError as e:
            print(f"GetTask on the serving loop: {type(e).__name__}")
    finally:
        await handle.stop()
    port = int(handle.url.rsplit(":", 1)[1])
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        print("after stop: the port still answers")  # not run
    except ConnectionRefusedError:
        print("after stop: connection refused")


asyncio.run(main())
