"""A sub-agent's tool suspends; which agent's wait_for answers?
argv[1]: lead (only lead has one) or both (ops, the sub-agent, too)."""
import asyncio
import sys

from toolnexus import Answer, Request
from toolnexus.agents import agent

from infra import LLM, create_database


# --8<-- [start:agents]
def answered_by(who: str):
    def wait_for(request: Request) -> Answer:
        print(f"{who}'s wait_for got {request.id}, data={request.data}")
        return Answer(id=request.id, ok=True, data={"region": f"{who}-region"})
    return wait_for


async def main(mode: str) -> None:
    ops = agent(
        "ops",
        does="Runs infrastructure tasks.",
        uses={"tools": [create_database]},
        wait_for=answered_by("ops") if mode == "both" else None,
    )
    lead = agent(
        "lead",
        does="Leads the work.",
        team=[ops],
        wait_for=answered_by("lead"),
    )
    result = await lead.run("Set up the orders database.", llm=LLM)
    # --8<-- [end:agents]
    print(f"status: {result.status}")
    print(f"lead said: {result.text}")


asyncio.run(main(sys.argv[1]))
