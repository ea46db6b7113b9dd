"""interrupt() on a handle that is suspended, then resume() and wait()."""
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
    runtime = result.runtime
    handle = runtime.root.children[0]
    print(f"{handle.id}: {handle.state}, waiting on {handle.pending_req.id}")
    # --8<-- [start:interrupt]
    runtime.interrupt(handle)
    print(f"{handle.id}: {handle.state}, waiting on {handle.pending_req}")
    try:
        late = Answer(id="db-orders", ok=True, data={"region": "eu-west-1"})
        await runtime.resume(late)
    except RuntimeError as err:
        print(f"resume raised RuntimeError: {err}")
    later = await runtime.wait(handle)
    print(f"wait() now returns: {later.status}, Request {later.pending.id}")
    # --8<-- [end:interrupt]


asyncio.run(main())
