"""runtime.resume(answer) with an Answer that names no Request that was
asked: its id and its data["path"] are both made up."""
import asyncio

from toolnexus import Answer
from toolnexus.agents import agent

from infra import LLM, create_database

ops = agent(
    "ops",
    does="Runs infrastructure tasks.",
    uses={"tools": [create_database]},
)


async def main() -> None:
    result = await ops.run("Create the orders database.", llm=LLM)
    asked = result.pending
    print(f"halted: {result.status}; asked {asked.id} at {asked.data['path']}")
    # --8<-- [start:resume]
    stranger = Answer(
        id="no-such-request",
        ok=True,
        data={"region": "eu-west-1", "path": ["root", "nobody.9"]},
    )
    resumed = await result.runtime.resume(stranger)
    # --8<-- [end:resume]
    print(f"resume returned: {resumed.status}")
    print(f"the agent said: {resumed.text}")


asyncio.run(main())
