"""An agent used as a tool (Agent.as_tool) by a plain client that has a
wait_for. The agent's tool suspends."""
import asyncio

from toolnexus import Answer, Request, create_client, create_toolkit
from toolnexus.agents import agent

from infra import LLM, create_database

ops = agent(
    "ops",
    does="Runs infrastructure tasks.",
    uses={"tools": [create_database]},
)
ASKED: list[str] = []  # the ids wait_for was called with


# --8<-- [start:client]
def wait_for(request: Request) -> Answer:
    ASKED.append(request.id)  # not run: no Request reaches it
    region = {"region": "eu-west-1"}  # not run
    return Answer(id=request.id, ok=True, data=region)  # not run


async def main() -> None:
    toolkit = await create_toolkit(
        extra_tools=[ops.as_tool(llm=LLM)], builtins=False
    )
    client = create_client(**LLM, wait_for=wait_for)
    result = await client.run("Set up the orders database.", toolkit)
    # --8<-- [end:client]
    # --8<-- [start:look]
    for call in result.tool_calls:
        print(
            f"{call['name']}: is_error={call['is_error']},"
            f" output={call['output']!r}"
        )
    print(f"wait_for was called for: {ASKED}")
    print(f"run: {result.status}, pending: {result.pending}")
    print(f"the model said: {result.text}")
    # --8<-- [end:look]


asyncio.run(main())
