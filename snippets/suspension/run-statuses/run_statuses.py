"""Run statuses: the same toolkit ends a run "done", "pending" or
"incomplete"."""
import asyncio
import os

from toolnexus import RunResult, create_client, create_toolkit, pending, tool


# --8<-- [start:tools]
@tool
def count_stock(item: str):
    """Count how many of an item are on the shelf."""
    return f"{item}: 42 on the shelf"


@tool
def pick_supplier(item: str):
    """Ask a manager which supplier to reorder an item from."""
    # Only the asking half: the approval gate shows a tool that reads
    # ctx.answer.
    return pending(
        kind="input",
        id=f"supplier-{item}",
        prompt=f"Which supplier for {item}?",
    )
# --8<-- [end:tools]


# --8<-- [start:report]
def report(label: str, result: RunResult) -> None:
    """Print the three fields that tell a host what to do next."""
    print(
        f"[{label}] status={result.status} limit={result.limit}"
        f" pending={result.pending}"
    )
    if result.status == "done":
        print(f"  answer: {result.text}")
    elif result.status == "pending":
        # Park result.pending and result.messages; answer the Request later.
        print(
            f"  waiting on {result.pending.id};"
            f" text is the prompt: {result.text!r}"
        )
    elif result.status == "incomplete":
        # A budget ran out; result.limit says which one.
        print(
            f"  stopped by {result.limit} after {result.turns} turns,"
            f" {result.tool_call_count} tool calls; text={result.text!r}"
        )
# --8<-- [end:report]


def make_client(**options):
    return create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        **options,
    )


async def main() -> None:
    toolkit = await create_toolkit(
        extra_tools=[count_stock, pick_supplier], builtins=False
    )
    # --8<-- [start:runs]
    client = make_client()  # no wait_for, default max_turns (10)

    # done: the model calls a tool, reads the result, and answers.
    report("done", await client.run("How many widgets are in stock?", toolkit))

    # pending: pick_supplier suspends, and with no wait_for the run halts.
    report("pending", await client.run("Reorder widgets.", toolkit))

    # incomplete: the model still calls tools when the turn budget runs out.
    short = make_client(max_turns=2)
    prompt = "Count every item in the warehouse."
    report("incomplete", await short.run(prompt, toolkit))
    # --8<-- [end:runs]


asyncio.run(main())
