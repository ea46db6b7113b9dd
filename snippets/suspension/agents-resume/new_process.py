"""Agents: a runtime built in another process has nothing to resume."""
import asyncio

from toolnexus import Answer
from toolnexus.agents import AgentRuntime

from halt_and_resume import LLM, ops


async def main() -> None:
    # --8<-- [start:try]
    # A later process has the stored Request id and the human's reply, but not
    # the runtime that halted: build a new one for the same agent and resume.
    runtime = AgentRuntime(registry=ops.registry(), llm=LLM)
    answer = Answer(id="db-orders", ok=True, data={"region": "eu-west-1"})
    try:
        resumed = await runtime.resume(answer)
        print(f"resumed status: {resumed.status}")  # not run: resume raises
    except RuntimeError as err:
        print(f"resume raised {type(err).__name__}: {err}")
    print(f"handles in the new runtime: {len(runtime.list())}")
    # --8<-- [end:try]


asyncio.run(main())
