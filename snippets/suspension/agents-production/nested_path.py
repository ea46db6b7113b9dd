"""A halt two agents deep: which handle does Request.data["path"] name?"""
import asyncio

from toolnexus import Answer
from toolnexus.agents import agent

from infra import LLM, create_database

ops = agent(
    "ops",
    does="Runs infrastructure tasks.",
    uses={"tools": [create_database]},
)
lead = agent("lead", does="Leads the work.", team=[ops])


async def main() -> None:
    # --8<-- [start:halt]
    result = await lead.run("Set up the orders database.", llm=LLM)
    asked = result.pending
    print(f"{result.status}: {asked.id}, path {asked.data['path']}")
    print("handles:", [(v.id, v.state) for v in result.runtime.list()])
    # --8<-- [end:halt]
    answer = Answer(id=asked.id, ok=True, data={"region": "eu-west-1"})
    resumed = await result.runtime.resume(answer)
    print(f"resumed: {resumed.text}")
    print("handles:", [(v.id, v.state) for v in result.runtime.list()])


asyncio.run(main())
