"""What a host stores for a Request and an Answer, what Request(**...) and
Answer(**...) take back, and what they let through unchecked. No model."""
import dataclasses
import json

from toolnexus import (
    Answer,
    Request,
    answer_declined,
    answer_output,
    auth_required,
    pending,
    pending_of,
)


def attempt(label: str, build) -> None:
    """Print what build() returned, or the exception it raised."""
    try:
        print(f"{label}: {build()!r}")
    except TypeError as e:
        print(f"{label}: {type(e).__name__}: {e}")


# --8<-- [start:store]
ask = pending_of(
    pending(
        kind="input",
        id="ask-region",
        prompt="Which region should the database live in?",
        data={
            "schema": {
                "type": "object",
                "properties": {"region": {"type": "string"}},
            }
        },
        expiresAt="2030-01-31T17:00:00Z",
    )
)
login = pending_of(
    auth_required(
        "https://id.example.com/authorize?client_id=ops", "Sign in to ops"
    )
)

stored = {}  # stands in for the database: row text by object
for item in (
    ask,
    login,
    Answer(id="ask-region", ok=True, data={"region": "eu-west-1"}),
    answer_output("ask-region", "eu-west-1"),
    answer_declined("ask-region", "expired"),
):
    row = json.dumps(dataclasses.asdict(item))  # what goes in the database
    print(row)
    stored[row] = item

# Reading back: the row's own class rebuilds it.
same = [type(item)(**json.loads(row)) == item for row, item in stored.items()]
print(f"read back equal: {sum(same)} of {len(same)}")
# --8<-- [end:store]

# --8<-- [start:refused]
# Each body below is what a host might read back; the dataclass refuses it.
for body in (
    '{"id": "ask-region", "ok": true, "expiresAt": "2030-01-31T17:00:00Z"}',
    '{"id": "ask-region", "ok": true, "note": "typed by dana"}',
    '{"id": "ask-region", "data": {"region": "eu-west-1"}}',
):
    attempt(f"Answer from {body}", lambda: Answer(**json.loads(body)))
for body in (
    '{"id": "ask-region", "kind": "input", "prompt": "?",'
    ' "expires_at": "2030-01-31"}',
    '{"id": "ask-region", "kind": "input", "prompt": "?",'
    ' "version": 2}',
):
    attempt(f"Request from {body}", lambda: Request(**json.loads(body)))
attempt(
    "json.dumps of the Answer itself",
    lambda: json.dumps(Answer(id="ask-region", ok=True)),
)
# --8<-- [end:refused]

# --8<-- [start:unchecked]
# Nothing checks the values' types: all of these are built as they are.
for body in (
    '{"id": "ask-region", "ok": "false"}',
    '{"id": "ask-region", "ok": 0}',
    '{"id": "ask-region", "ok": false, "reason": "timeout"}',
    '{"id": 7, "ok": true, "data": ["eu-west-1"]}',
):
    answer = Answer(**json.loads(body))
    print(f"{body} -> {answer!r}, truthy: {bool(answer.ok)}")

# And JSON itself changes some values on the way through.
odd = Request(
    id="r1", kind="input", prompt="?",
    data={"path": ("root", "ops"), 3: "third"},
)
back = Request(**json.loads(json.dumps(dataclasses.asdict(odd))))
print(f"data before: {odd.data!r}")
print(f"data after:  {back.data!r}, equal: {back == odd}")
# --8<-- [end:unchecked]
