"""The built-in question tool answered with ok=True and no data: the model
is shown an empty object, and no error says the replies are missing.

Usage: python no_data.py
"""
import asyncio
import os

from toolnexus import (
    Answer,
    Request,
    create_builtin_tools,
    create_client,
    create_toolkit,
)


def yes_without_data(request: Request) -> Answer:
    """A wait_for that says yes to the questions but sends no replies."""
    print(f"kind={request.kind}: answering ok=True with no data")
    return Answer(id=request.id, ok=True)


async def main() -> None:
    question = next(t for t in create_builtin_tools() if t.name == "question")
    toolkit = await create_toolkit(extra_tools=[question], builtins=False)
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=yes_without_data,
    )
    result = await client.run("Deploy the new build. Ask me first.", toolkit)
    print(f"status: {result.status}")
    print(f"the model was shown: {result.tool_calls[0]['output']!r}")


asyncio.run(main())
