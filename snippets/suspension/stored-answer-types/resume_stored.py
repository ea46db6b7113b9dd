"""A stored Answer whose ok was written as the string "false" (a form field,
a spreadsheet cell) is handed to the run.

Usage: python resume_stored.py trusting|checked text|bool
  trusting  rebuild the Answer with Answer(**json.loads(row)) and resume;
  checked   check the row's types first, and refuse to resume on a bad one;
  text      the row the form wrote, ok as the text "false";
  bool      the same refusal with ok as a JSON boolean.
"""
import asyncio
import json
import os
import sys

from toolnexus import (
    Answer,
    Request,
    ToolContext,
    create_client,
    create_toolkit,
    pending,
    tool,
)

# --8<-- [start:tool]
@tool
def drop_table(table: str, ctx: ToolContext = None):
    """Drop a database table, once a person has approved it."""
    if ctx is None or ctx.answer is None:
        return pending(
            kind="approval",
            id=f"drop-{table}",
            prompt=f"Drop the table {table}?",
        )
    return f"dropped {table}"
# --8<-- [end:tool]

# The rows a reviewer's form may write when the reviewer says no.
ROWS = {
    "text": '{"id": "drop-orders", "ok": "false", "data": null,'
    ' "reason": "declined"}',
    "bool": '{"id": "drop-orders", "ok": false, "data": null,'
    ' "reason": "declined"}',
}


# --8<-- [start:checked]
def load_answer(row: str) -> Answer:
    """Rebuild a stored Answer, refusing values of the wrong type
    (ValueError), since the Answer dataclass checks none."""
    fields = json.loads(row)
    expected = {"id": str, "ok": bool, "data": (dict, type(None))}
    wrong = [
        key for key, kind in expected.items()
        if not isinstance(fields.get(key), kind)
    ]
    if wrong:
        raise ValueError(f"wrong type for {', '.join(wrong)} in {row}")
    return Answer(**fields)
# --8<-- [end:checked]


async def main(mode: str, row: str) -> None:
    # --8<-- [start:resume]
    if mode == "checked":
        try:
            answer = load_answer(ROWS[row])
        except ValueError as e:
            print(f"not resumed: {e}")
            return
    else:
        answer = Answer(**json.loads(ROWS[row]))

    def one_shot(request: Request) -> Answer:
        return answer

    toolkit = await create_toolkit(extra_tools=[drop_table], builtins=False)
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=one_shot,
    )
    result = await client.run("Drop the orders table.", toolkit)
    print(f"status={result.status}: {result.text}")
    # --8<-- [end:resume]


asyncio.run(main(sys.argv[1], sys.argv[2]))
