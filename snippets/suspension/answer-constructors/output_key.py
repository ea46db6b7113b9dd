"""answer_output in the Python inline loop: the whole Answer goes to the
tool, and the tool's return value is what the model sees."""
import asyncio
import os

from toolnexus import (
    Answer,
    Request,
    ToolContext,
    answer_output,
    create_client,
    create_toolkit,
    pending,
    tool,
)


# --8<-- [start:tools]
@tool
def ask_human(question: str, ctx: ToolContext = None):
    """Ask a human a question and wait for the reply."""
    if ctx is None or ctx.answer is None:
        return pending(kind="input", id="ask-env", prompt=question)
    # The tool reads the "output" key itself.
    return f"the human replied: {ctx.answer.data['output']}"


@tool
def ask_human_ignoring_data(question: str, ctx: ToolContext = None):
    """Ask a human a question; only notes that a reply came."""
    if ctx is None or ctx.answer is None:
        return pending(kind="input", id="ask-env-2", prompt=question)
    return "the human answered"  # never looks at ctx.answer.data
# --8<-- [end:tools]


# --8<-- [start:host]
def reply_staging(request: Request) -> Answer:
    return answer_output(request.id, "staging")
# --8<-- [end:host]


async def main() -> None:
    toolkit = await create_toolkit(
        extra_tools=[ask_human, ask_human_ignoring_data], builtins=False
    )
    # --8<-- [start:run]
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=reply_staging,
    )
    for name in ("ask_human", "ask_human_ignoring_data"):
        task = f"Use {name} to ask where to deploy."
        result = await client.run(task, toolkit)
        print(f"{name}: {result.text}")
    # --8<-- [end:run]


asyncio.run(main())
