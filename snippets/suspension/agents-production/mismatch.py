"""A tool that checks ctx.answer.id and asks again on a mismatch, resumed
with an Answer meant for another Request: resume's own wait_for hands the
same Answer to the second question, the loop gives up with "unresolved:",
and the runtime no longer holds the question."""
import asyncio

from toolnexus import Answer, ToolContext, pending, tool
from toolnexus.agents import agent

from infra import LLM


# --8<-- [start:tool]
@tool
def create_database(name: str, ctx: ToolContext = None):
    """Create a database, acting only on the Answer to its own question."""
    asked = f"db-{name}"
    if ctx is not None and ctx.answer is not None:
        if ctx.answer.id == asked:
            return f"created {name} in {ctx.answer.data['region']}"  # not run
        print(f"create_database({name}) refuses the Answer for {ctx.answer.id}")
    return pending(
        kind="input",
        id=asked,
        prompt=f"Which region should the {name} database live in?",
    )
# --8<-- [end:tool]


ops = agent(
    "ops",
    does="Runs infrastructure tasks.",
    uses={"tools": [create_database]},
)


async def main() -> None:
    result = await ops.run("Create the orders database.", llm=LLM)
    print(f"halted: {result.status}; asked {result.pending.id}")
    # --8<-- [start:resume]
    meant_for_billing = Answer(
        id="db-billing", ok=True, data={"region": "ap-south-1"}
    )
    resumed = await result.runtime.resume(meant_for_billing)
    print(f"resume returned: {resumed.status}")
    print(f"the agent said: {resumed.text}")
    states = [(view.id, view.state) for view in result.runtime.list()]
    print(f"handles: {states}")
    # --8<-- [end:resume]


asyncio.run(main())
