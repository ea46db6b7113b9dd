"""A message queued for an agent before its turn starts becomes part of the
turn's input, and runtime.resume replays that whole input, message
included. A before_llm hook prints the user message the model is sent."""
import asyncio

from toolnexus import Answer
from toolnexus.agents import AgentRuntime, InboxItem, agent

from infra import LLM, create_database

ops = agent(
    "ops",
    does="Runs infrastructure tasks.",
    uses={"tools": [create_database]},
)


turn = "first turn"


def show_prompt(event: dict) -> None:
    """A before_llm hook: print the latest user message of the request."""
    users = [m for m in event["messages"] if m.get("role") == "user"]
    text = users[-1]["content"].replace("\n", " / ")
    print(f"{turn}, the model is sent: {text}")


async def main() -> None:
    global turn
    # --8<-- [start:queued]
    runtime = AgentRuntime(
        registry=ops.registry(), llm=LLM, hooks={"before_llm": show_prompt}
    )
    handle = runtime.spawn(runtime.root, "ops")
    note = InboxItem(from_="external", channel="external", text="Use SSDs.")
    runtime.post(handle, note)
    runtime.wake(handle, "Create the orders database.")
    halted = await runtime.wait(handle)
    print(f"halted: {halted.status}; asked {halted.pending.id}")
    answer = Answer(id="db-orders", ok=True, data={"region": "eu-west-1"})
    turn = "resumed turn"
    resumed = await runtime.resume(answer)
    print(f"resume returned: {resumed.status}")
    # --8<-- [end:queued]


asyncio.run(main())
