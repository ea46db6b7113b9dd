"""A stored Answer whose ok was written as the string "false" (a form field,
a spreadsheet cell) is handed to the run.

Usage: python resume_stored.py trusting|checked text|bool|extra
  trusting  rebuild the Answer with Answer(**json.loads(row)) and hand it on;
  checked   check the row's keys and types first, and refuse a bad one;
  text      the row the form wrote, ok as the text "false";
  bool      the same refusal with ok as a JSON boolean;
  extra     that row with a key the form added (note).
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
    "extra": '{"id": "drop-orders", "ok": false, "data": null,'
    ' "reason": "declined", "note": "not during office hours"}',
}


# --8<-- [start:checked]
CHECKS = {
    "id": lambda v: isinstance(v, str),
    "ok": lambda v: isinstance(v, bool),
    "data": lambda v: v is None or isinstance(v, dict),
    "reason": lambda v: v in (None, "declined", "cancelled", "expired"),
}


def load_answer(row: str) -> Answer:
    """Rebuild a stored Answer from its JSON row, or raise ValueError naming
    what is wrong: the Answer dataclass checks no value, and would refuse an
    unknown key with a TypeError instead."""
    fields = json.loads(row)
    unknown = sorted(set(fields) - set(CHECKS))
    if unknown:
        raise ValueError(f"unknown keys {unknown} in {row}")
    wrong = [
        key for key, check in CHECKS.items() if not check(fields.get(key))
    ]
    if wrong:
        raise ValueError(f"wrong value for {', '.join(wrong)} in {row}")
    return Answer(**fields)
# --8<-- [end:checked]


async def main(mode: str, row: str) -> None:
    # --8<-- [start:resume]
    if mode == "checked":
        try:
            answer = load_answer(ROWS[row])
        except ValueError as e:
            print(f"row refused: {e}")
            return
    else:
        answer = Answer(**json.loads(ROWS[row]))

    def one_shot(request: Request) -> Answer:
        # toolnexus does not compare the ids: hand the stored Answer only
        # to the Request it was given for.
        if request.id != answer.id:
            raise LookupError(  # not run: the model asks for orders again
                f"answer {answer.id} is not for request {request.id}"
            )
        return answer

    toolkit = await create_toolkit(extra_tools=[drop_table], builtins=False)
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=one_shot,
    )
    # A fresh run stands in for the resume here (Answer later rewinds a
    # parked transcript): the model asks to drop orders again, and the
    # tool's Request gets the same id as the stored one.
    result = await client.run("Drop the orders table.", toolkit)
    print(f"status={result.status}: {result.text}")
    # --8<-- [end:resume]


asyncio.run(main(sys.argv[1], sys.argv[2]))
