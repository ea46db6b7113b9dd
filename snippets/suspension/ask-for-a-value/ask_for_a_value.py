"""Ask for a value: a tool suspends with kind "input" and a schema; the
Answer's data is the value."""
import asyncio
import datetime
import os

from toolnexus import (
    Answer,
    Request,
    ToolContext,
    create_client,
    create_toolkit,
    pending,
    tool,
)

# --8<-- [start:schema]
# What the tool expects back, as a flat JSON Schema. A host can build its
# form from it.
REVIEW_DATE = {
    "type": "object",
    "properties": {
        "date": {
            "type": "string",
            "format": "date",
            "description": "day of the review, YYYY-MM-DD",
        },
    },
    "required": ["date"],
}
# --8<-- [end:schema]


# --8<-- [start:tool]
@tool
def schedule_review(pull_request: int, ctx: ToolContext = None):
    """Book a review meeting for a pull request."""
    if ctx is None or ctx.answer is None:
        return pending(
            kind="input",
            id=f"review-date-{pull_request}",
            prompt=f"On which day should #{pull_request} be reviewed?",
            data={"schema": REVIEW_DATE},
        )
    # The Answer's data is the value itself. Nobody checked it against the
    # schema, so check here.
    reply = ctx.answer.data or {}
    missing = [key for key in REVIEW_DATE["required"] if key not in reply]
    if missing:
        sent = ", ".join(reply) or "none"
        raise ValueError(
            f"the answer has no {', '.join(missing)} (keys sent: {sent})"
        )
    day = datetime.date.fromisoformat(reply["date"])
    return f"review of #{pull_request} booked for {day:%A} {day.isoformat()}"
# --8<-- [end:tool]


# --8<-- [start:wait-for]
def form(typed: dict):
    """A wait_for that shows a form built from the schema and returns what
    the human typed."""

    def wait_for(request: Request) -> Answer:
        fields = request.data["schema"]["properties"]
        labels = ", ".join(
            f"{name} ({spec['description']})" for name, spec in fields.items()
        )
        print(f"form: {request.prompt} [{labels}]")
        print(f"submitted: {typed}")
        return Answer(id=request.id, ok=True, data=typed)

    return wait_for
# --8<-- [end:wait-for]


async def main() -> None:
    toolkit = await create_toolkit(
        extra_tools=[schedule_review], builtins=False
    )
    # --8<-- [start:run]
    # The second host has a bug: it sends the value under "day", not "date".
    for typed in ({"date": "2030-02-04"}, {"day": "2030-02-04"}):
        client = create_client(
            base_url=os.environ["OPENAI_BASE_URL"],
            api_key=os.environ["OPENAI_API_KEY"],
            style="openai",
            model="gpt-4o-mini",
            wait_for=form(typed),
        )
        result = await client.run(
            "Book a review for pull request 42.", toolkit
        )
        print(f"status: {result.status}")
        print(f"model said: {result.text}")
        last_call = result.tool_calls[-1]
        print(f"tool call recorded with is_error={last_call['is_error']}")
    # --8<-- [end:run]


asyncio.run(main())
