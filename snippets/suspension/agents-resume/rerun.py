"""Agents: in a new process, run the halted turn again and answer it from
storage.

Usage: python rerun.py <halted prompt> <request id> <reply>
"""
import asyncio
import sys

from toolnexus import Answer, Request
from toolnexus.agents import agent

from halt_and_resume import LLM, create_database


# --8<-- [start:one-shot]
def one_shot(answer: Answer):
    """A wait_for that hands over one stored Answer to the Request it
    belongs to."""
    used = False

    def wait_for(request: Request) -> Answer:
        nonlocal used
        if request.id != answer.id or used:
            raise RuntimeError(f"no stored answer for request {request.id}")
        used = True
        return answer

    return wait_for
# --8<-- [end:one-shot]


async def main(prompt: str, request_id: str, reply: str) -> None:
    # --8<-- [start:rerun]
    answer = Answer(id=request_id, ok=True, data={"region": reply})
    # The same agent, this time with a wait_for that holds the stored Answer.
    ops = agent(
        "ops",
        does="Runs infrastructure tasks.",
        uses={"tools": [create_database]},
        wait_for=one_shot(answer),
    )
    result = await ops.run(prompt, llm=LLM)
    print(f"status: {result.status}")
    print(f"pending: {result.pending}")
    print(f"agent said: {result.text}")
    # --8<-- [end:rerun]


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
