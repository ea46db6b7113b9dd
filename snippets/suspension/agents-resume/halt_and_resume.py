"""Agents: Agent.run halts pending, and result.runtime.resume(answer)
finishes the work."""
import asyncio
import os

from toolnexus import Answer, ToolContext, pending, tool
from toolnexus.agents import agent


# --8<-- [start:agent]
@tool
def create_database(name: str, ctx: ToolContext = None):
    """Create a database. A human picks the region."""
    if ctx is None or ctx.answer is None:
        return pending(
            kind="input",
            id=f"db-{name}",  # the same call always asks with the same id
            prompt=f"Which region should the {name} database live in?",
        )
    return f"created database {name} in {ctx.answer.data['region']}"


# No wait_for on the agent (or any agent above it), so a suspension halts
# the run.
ops = agent(
    "ops",
    does="Runs infrastructure tasks.",
    uses={"tools": [create_database]},
)

LLM = {
    "base_url": os.environ["OPENAI_BASE_URL"],
    "api_key": os.environ["OPENAI_API_KEY"],
    "style": "openai",
    "model": "gpt-4o-mini",
}
# --8<-- [end:agent]


async def main() -> None:
    # --8<-- [start:halt]
    result = await ops.run("Create the orders database.", llm=LLM)
    print(f"status: {result.status}")
    request = result.pending
    print(f"pending {request.id} ({request.kind}): {request.prompt}")
    print(f"path: {request.data['path']}")
    # The suspended handle lives in this runtime object, in this process.
    for view in result.runtime.list():
        print(f"handle {view.id}: {view.state}")
    # --8<-- [end:halt]

    # --8<-- [start:resume]
    answer = Answer(id=request.id, ok=True, data={"region": "eu-west-1"})
    resumed = await result.runtime.resume(answer)
    print(f"resumed status: {resumed.status}")
    print(f"agent said: {resumed.text}")
    # --8<-- [end:resume]


if __name__ == "__main__":  # the other programs import ops and LLM from here
    asyncio.run(main())
