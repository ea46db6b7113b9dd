"""What the loop does with what wait_for gives back, other than an Answer.
The first argument picks the wait_for: "none" returns None, "not-an-answer"
returns a dict, True and False in three runs, "look-alike" returns an
object of its own with an ok attribute, "raises" raises."""
import asyncio
import dataclasses
import os
import sys

from toolnexus import (
    Request,
    ToolContext,
    create_client,
    create_toolkit,
    pending,
    tool,
)


# --8<-- [start:tools]
@tool
async def deploy(environment: str, ctx: ToolContext = None):
    """Deploy the current build to an environment."""
    if ctx is None or ctx.answer is None:
        return pending(
            kind="approval",
            id=f"deploy-{environment}",
            prompt=f"Deploy the current build to {environment}?",
        )
    return f"deployed to {environment}, ctx.answer: {type(ctx.answer).__name__}"


@tool
async def notify(team: str):
    """Tell a team that a deploy is coming."""
    print(f"notify acts: paged {team}")
    return f"paged {team}"
# --8<-- [end:tools]


# --8<-- [start:none]
def closed_dialog(request: Request):
    """The reviewer closed the dialog without answering."""
    return None
# --8<-- [end:none]


# --8<-- [start:not-an-answer]
NOT_ANSWERS = [
    {"id": "deploy-staging", "ok": True},  # an Answer's fields in a dict
    True,  # "yes"
    False,  # "no"
]
# --8<-- [end:not-an-answer]


# --8<-- [start:look-alike]
@dataclasses.dataclass
class Approval:
    """A home-made answer type: an id and an ok, and no Answer."""

    id: str
    ok: bool
# --8<-- [end:look-alike]


# --8<-- [start:raises]
class ReviewerUnreachable(Exception):
    pass


def unreachable(request: Request):
    """The approvals service is down."""
    raise ReviewerUnreachable("the approvals service did not answer")
# --8<-- [end:raises]


async def run_once(toolkit, wait_for, on_metric=None) -> None:
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=wait_for,
        on_metric=on_metric,
    )
    try:
        prompt = "Page ops, then ship the build to staging."
        result = await client.run(prompt, toolkit)
        print(f"status: {result.status}; model said: {result.text}")
    except Exception as e:  # noqa: BLE001 - showing what escapes the run
        print(f"the run raised {type(e).__name__}: {e}")


async def main(mode: str) -> None:
    tools = [deploy, notify]
    toolkit = await create_toolkit(extra_tools=tools, builtins=False)
    # --8<-- [start:run]
    if mode == "none":
        await run_once(toolkit, closed_dialog)
    elif mode == "not-an-answer":
        for value in NOT_ANSWERS:
            print(f"wait_for returns {value!r}:", end=" ")
            await run_once(toolkit, lambda request: value)
    elif mode == "look-alike":
        await run_once(toolkit, lambda request: Approval(request.id, True))
    else:
        run_errors = []

        def on_metric(event: dict) -> None:
            if event["event"] == "run":
                run_errors.append(event.get("error"))

        await run_once(toolkit, unreachable, on_metric)
        print(f"run metric error: {run_errors}")
    # --8<-- [end:run]


asyncio.run(main(sys.argv[1]))
