"""A2A input-required: a served toolkit whose run halts pending reports
"input-required".

The program plays both sides: it serves the toolkit over A2A on 127.0.0.1,
then acts as the remote peer with plain JSON-RPC over urllib.
"""
import asyncio
import json
import os
import urllib.request

from toolnexus import create_client, create_toolkit, pending, tool


# --8<-- [start:tool]
@tool
def book_meeting(topic: str):
    """Book a meeting about a topic; a person must pick the day."""
    # Only the asking half: the approval gate shows a tool that reads
    # ctx.answer.
    return pending(
        kind="input",
        id=f"meeting-{topic}",
        prompt=f"Which day suits the {topic} meeting?",
    )
# --8<-- [end:tool]


# --8<-- [start:peer]
def rpc(url: str, method: str, params: dict) -> dict:
    """One JSON-RPC 2.0 call, as an A2A peer makes it."""
    call = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    request = urllib.request.Request(
        url,
        data=json.dumps(call).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        reply = json.load(response)
    if "error" in reply:
        raise RuntimeError(  # not run: the server answers without an error
            f"{method}: {reply['error']['message']}"
        )
    return reply["result"]


async def poll_task(url: str, task_id: str, timeout: float = 10.0) -> dict:
    """GetTask until the task leaves submitted/working."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        await asyncio.sleep(0.05)
        # A thread, because the server in this process answers on this loop.
        task = await asyncio.to_thread(rpc, url, "GetTask", {"id": task_id})
        busy = task["status"]["state"] in ("submitted", "working")
        if not busy or asyncio.get_running_loop().time() > deadline:
            break
    if busy:
        raise TimeoutError(  # not run: it finishes in time here
            f"task {task_id} still {task['status']['state']}"
        )
    return task
# --8<-- [end:peer]


async def main() -> None:
    toolkit = await create_toolkit(extra_tools=[book_meeting], builtins=False)
    # --8<-- [start:serve]
    client = create_client(  # no wait_for: a suspension halts the served run
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
    )
    finished = {}  # what on_task saw, keyed by task id
    halted = asyncio.Event()

    def on_task(event: dict) -> None:
        # Runs when the task stops; event["result"] is the RunResult, with
        # the whole Request.
        finished[event["id"]] = event
        halted.set()

    handle = await toolkit.serve(
        "127.0.0.1:0",
        client=client,
        on_task=on_task,
        a2a={"name": "scheduler", "description": "Books meetings."},
    )
    # --8<-- [end:serve]
    try:
        # --8<-- [start:send]
        card_url = handle.url + "/.well-known/agent-card.json"
        card = await asyncio.to_thread(
            lambda: json.load(urllib.request.urlopen(card_url))
        )
        text = "Book a meeting about the launch."
        message = {
            "role": "user",
            "messageId": "msg-1",
            "parts": [{"kind": "text", "text": text}],
        }
        task = await asyncio.to_thread(
            rpc, card["url"], "SendMessage", {"message": message}
        )
        print(
            f"SendMessage to {card['name']} at {card['url']}:"
            f" state {task['status']['state']}"
        )

        # The server runs in this process: once on_task has run (after
        # the task is saved), one poll finds it stopped, whatever the load.
        await asyncio.wait_for(halted.wait(), timeout=10)
        task = await poll_task(card["url"], task["id"])
        print(f"task state: {task['status']['state']}")
        print(f"message: {task['status']['message']['parts'][0]['text']}")
        print(
            f"task fields: {sorted(task)};"
            f" status fields: {sorted(task['status'])}"
        )

        result = finished[task["id"]]["result"]
        print(f"on_task: status={result.status} pending={result.pending}")
        # --8<-- [end:send]
    finally:
        await handle.stop()
    print("server stopped")


asyncio.run(main())
