"""answer_declined in the Python inline loop: the reason does not change
what the model sees."""
import asyncio
import os

from toolnexus import (
    Answer,
    Request,
    ToolContext,
    answer_declined,
    create_client,
    create_toolkit,
    pending,
    tool,
)


@tool
def ask_human(question: str, ctx: ToolContext = None):
    """Ask a human a question and wait for the reply."""
    if ctx is None or ctx.answer is None:
        return pending(kind="input", id="ask-env", prompt=question)
    return f"the human replied: {ctx.answer.data['output']}"  # not run


# --8<-- [start:run]
def refuse_with(reason: str):
    def wait_for(request: Request) -> Answer:
        return answer_declined(request.id, reason)

    return wait_for


async def main() -> None:
    toolkit = await create_toolkit(extra_tools=[ask_human], builtins=False)
    for reason in ("declined", "expired"):
        client = create_client(
            base_url=os.environ["OPENAI_BASE_URL"],
            api_key=os.environ["OPENAI_API_KEY"],
            style="openai",
            model="gpt-4o-mini",
            wait_for=refuse_with(reason),
        )
        result = await client.run("Ask where to deploy.", toolkit)
        print(f"reason={reason}: {result.text}")
# --8<-- [end:run]


asyncio.run(main())
