"""A tool that raises: a function made into a tool with @tool gives the model
an error result, and the run goes on; a hand-built Tool's exception leaves
run itself, so there is no RunResult."""
import asyncio
import os

from toolnexus import Tool, ToolResult, create_client, create_toolkit, tool

SHELF = {"widgets": 42}


def shelf_count(item: str) -> int:
    """The shelf's count of an item; raises LookupError for one it lacks."""
    if item not in SHELF:
        raise LookupError(f"no {item} on the shelf")
    return SHELF[item]


# --8<-- [start:tools]
@tool
def count_stock(item: str):
    """Count how many of an item are on the shelf."""
    return f"{item}: {shelf_count(item)} on the shelf"


async def count_stock_by_hand(args, ctx=None) -> ToolResult:
    """The same lookup, as the execute of a Tool built by hand."""
    return ToolResult(
        output=f"{args['item']}: {shelf_count(args['item'])} on the shelf",
        is_error=False,
    )


count_stock_raw = Tool(
    name="count_stock_raw",
    description="Count how many of an item are on the shelf.",
    input_schema={
        "type": "object",
        "properties": {"item": {"type": "string"}},
        "required": ["item"],
    },
    source="custom",
    execute=count_stock_by_hand,
)
# --8<-- [end:tools]


async def main() -> None:
    toolkit = await create_toolkit(
        extra_tools=[count_stock, count_stock_raw], builtins=False
    )
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
    )
    # --8<-- [start:runs]
    result = await client.run("Count widgets and bolts, count_stock.", toolkit)
    print(f"@tool: status={result.status}, the model was shown")
    for call in result.tool_calls:
        print(f"  is_error={call['is_error']} output={call['output']!r}")
    try:
        await client.run("Count the bolts with count_stock_raw.", toolkit)
    except LookupError as e:
        print(f"hand-built Tool: run raised {type(e).__name__}: {e}")
    # --8<-- [end:runs]


asyncio.run(main())
