"""MCP elicitation, form mode: the server asks for a form, wait_for fills it
in."""
import asyncio
import os
import sys
from pathlib import Path

from toolnexus import Answer, Request, create_client, create_toolkit

# The server is a file next to this one, started with this same interpreter.
SERVER = Path(__file__).with_name("bookings_server.py")


# --8<-- [start:wait-for]
def fill_in_form(choice: str):
    """A wait_for for the toolkit: it receives each elicitation as a
    Request."""

    def wait_for(request: Request) -> Answer:
        print(f"asked ({request.kind}): {request.prompt}")
        schema = request.data["schema"]  # the server's form, as JSON Schema
        properties = schema["properties"]
        fields = {name: spec["type"] for name, spec in properties.items()}
        print(f"form: {fields}, required: {schema['required']}")
        if choice == "accept":
            # data is the form's content, keyed by the schema's property names.
            return Answer(
                id=request.id, ok=True, data={"guests": 4, "time": "19:30"}
            )
        return Answer(id=request.id, ok=False, reason=choice)

    return wait_for
# --8<-- [end:wait-for]


async def main() -> None:
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
    )
    # --8<-- [start:toolkit]
    for choice in ("accept", "declined", "cancelled"):
        bookings = {"command": [sys.executable, str(SERVER)]}
        config = {"mcpServers": {"bookings": bookings}}
        # wait_for goes to the toolkit: the MCP connection is where
        # elicitations arrive.
        async with await create_toolkit(
            mcp_config=config, wait_for=fill_in_form(choice), builtins=False
        ) as toolkit:
            result = await client.run("Book a table at Luigi's.", toolkit)
        print(f"status: {result.status}")
        print(f"model said: {result.text}")
    # --8<-- [end:toolkit]


asyncio.run(main())
