"""The built-in question tool: the model asks the host structured questions
and gets the answers back.

Usage: python ask_questions.py answers | declines
"""
import asyncio
import os
import sys

from toolnexus import (
    Answer,
    Request,
    create_builtin_tools,
    create_client,
    create_toolkit,
)


# --8<-- [start:toolkit]
async def question_only_toolkit():
    """A toolkit holding the built-in `question` tool and none of the other
    nine built-ins."""
    question = next(t for t in create_builtin_tools() if t.name == "question")
    return await create_toolkit(extra_tools=[question], builtins=False)
# --8<-- [end:toolkit]


# --8<-- [start:wait-for]
def human_picks(picks: list[str] | None):
    """A wait_for that shows each question and answers with `picks`, one per
    question. With picks=None the human dismisses the questions instead."""

    def wait_for(request: Request) -> Answer:
        print(f"kind={request.kind}, prompt:")
        print(request.prompt)
        for q in request.data["questions"]:  # as the model sent them
            header, options = q.get("header", ""), q.get("options", [])
            print(f"- [{header}] {q['question']} options={options}")
        if picks is None:
            return Answer(id=request.id, ok=False, reason="declined")
        # The tool hands Answer.data back to the model as JSON, so choose
        # keys the model can read.
        return Answer(id=request.id, ok=True, data={"answers": picks})

    return wait_for
# --8<-- [end:wait-for]


async def main(mode: str) -> None:
    toolkit = await question_only_toolkit()
    picks = {"answers": ["staging", "no"], "declines": None}[mode]
    # --8<-- [start:run]
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=human_picks(picks),
    )
    result = await client.run(
        "Deploy the new build. Ask me anything you need first.", toolkit
    )
    print(f"status: {result.status}")
    print(f"model said: {result.text}")
    # --8<-- [end:run]


asyncio.run(main(sys.argv[1]))
