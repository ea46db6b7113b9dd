"""Two branches of one runtime halt: "a" asks itself, "b" delegates to
"c", which asks. One Answer meant for c. argv[1] is the spawn order:
a-first or b-first."""
import asyncio
import sys

from toolnexus import Answer
from toolnexus.agents import AgentRuntime, agent

from infra import LLM, create_database

a = agent("a", does="Creates databases.", uses={"tools": [create_database]})
c = agent("c", does="Creates databases.", uses={"tools": [create_database]})
b = agent("b", does="Hands database work to c.", team=[c])
registry = agent("lead", does="Holds the others.", team=[a, b]).registry()


async def main(order: str) -> None:
    runtime = AgentRuntime(registry=registry, llm=LLM)
    # --8<-- [start:halt]
    if order == "a-first":
        ha = runtime.spawn(runtime.root, "a")
        hb = runtime.spawn(runtime.root, "b")
    else:
        hb = runtime.spawn(runtime.root, "b")
        ha = runtime.spawn(runtime.root, "a")
    runtime.wake(hb, "Set up billing.")
    billing = await runtime.wait(hb)
    runtime.wake(ha, "Create the orders database.")
    orders = await runtime.wait(ha)
    for r in (billing, orders):
        print(f"{r.status}: {r.pending.id}, path {r.pending.data['path']}")
    print("before:", [(v.id, v.state) for v in runtime.list()])
    # --8<-- [end:halt]
    # --8<-- [start:resume]
    # This Answer is for c's question: its id, and the path of c's handle.
    for_c = Answer(
        id="db-billing",
        ok=True,
        data={"region": "eu-west-1", "path": hb.id.split("/") + ["c.1"]},
    )
    resumed = await runtime.resume(for_c)
    print(f"resumed: {resumed.text}")
    print("after:", [(v.id, v.state) for v in runtime.list()])
    # --8<-- [end:resume]


asyncio.run(main(sys.argv[1]))
