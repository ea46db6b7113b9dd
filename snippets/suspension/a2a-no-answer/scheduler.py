"""What the A2A programs here share: the served tool, on_task events that can
be awaited, and JSON-RPC as a peer sends it."""
import asyncio
import json
import urllib.request

from toolnexus import SkillDef, ToolContext, create_toolkit, pending, tool


# --8<-- [start:tool]
@tool
def book_meeting(topic: str, ctx: ToolContext = None):
    """Book a meeting about a topic; a person must pick the day."""
    if ctx is not None and ctx.answer is not None:
        # A resumed call would land here; over A2A none ever does.
        day = ctx.answer.data["day"]  # not run
        return f"booked the {topic} meeting on {day}"  # not run
    return pending(
        kind="input",
        id=f"meeting-{topic}",
        prompt=f"Which day suits the {topic} meeting?",
    )
# --8<-- [end:tool]


async def scheduler_toolkit():
    """The served toolkit. A skill, so that its Agent Card lists one."""
    meetings = SkillDef(
        name="meetings",
        description="Books meetings.",
        content="Use book_meeting.",
    )
    return await create_toolkit(
        extra_tools=[book_meeting], skills=[meetings], builtins=False
    )


# --8<-- [start:events]
class TaskEvents:
    """on_task's events, awaitable by task id: the server calls on_task
    after it has saved the task's final state, so once a task's event is
    here, GetTask reports that state (unless the save failed)."""

    def __init__(self):
        self._events = {}

    def _slot(self, task_id):
        loop = asyncio.get_running_loop()
        return self._events.setdefault(task_id, loop.create_future())

    def on_task(self, event: dict) -> None:
        self._slot(event["id"]).set_result(event)

    async def finished(self, task_id: str) -> dict:
        return await asyncio.wait_for(self._slot(task_id), timeout=10)

    def seen(self) -> list:
        """The events so far, in the order their tasks were first named."""
        return [f.result() for f in self._events.values() if f.done()]
# --8<-- [end:events]


def _post(url: str, method: str, params: dict) -> dict:
    call = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    request = urllib.request.Request(
        url,
        data=json.dumps(call).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


async def rpc(url: str, method: str, params: dict) -> dict:
    """One JSON-RPC call; the whole reply (result or error). In a thread: the
    server in this process does its work on this event loop."""
    return await asyncio.to_thread(_post, url, method, params)


async def send(url: str, text: str, **ids: str) -> dict:
    """SendMessage with a text part; ids: contextId, taskId."""
    message = {
        "role": "user",
        "messageId": f"msg-{text[:8]}",
        "parts": [{"kind": "text", "text": text}],
        **ids,
    }
    return (await rpc(url, "SendMessage", {"message": message}))["result"]


async def get_task(url: str, task_id: str) -> dict:
    return (await rpc(url, "GetTask", {"id": task_id}))["result"]


def said(task: dict) -> str:
    """A task's state and its text: the artifact's, else the status
    message's."""
    parts = [p for a in task.get("artifacts", []) for p in a["parts"]]
    parts = parts or task["status"].get("message", {}).get("parts", [])
    text = " ".join(p["text"] for p in parts)
    state = task["status"]["state"]
    return f"{state}: {text}" if text else state
