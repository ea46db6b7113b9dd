"""Exercise a suspending tool the way the run loop does, without a model."""
import asyncio

from toolnexus import (
    Answer,
    ToolContext,
    create_toolkit,
    pending,
    pending_of,
    tool,
)


# --8<-- [start:tool]
@tool
def choose_environment(service: str, ctx: ToolContext = None):
    """Ask a human which environment a service should be deployed to."""
    if ctx is None or ctx.answer is None:
        return pending(
            kind="input",
            id=f"env-{service}",
            prompt=f"Where should {service} go?",
        )
    return f"{service} goes to {ctx.answer.data['environment']}"
# --8<-- [end:tool]


# --8<-- [start:by-hand]
async def main() -> None:
    toolkit = await create_toolkit(
        extra_tools=[choose_environment], builtins=False
    )
    # First call: no ctx.answer, so the tool suspends.
    first = await toolkit.execute("choose_environment", {"service": "billing"})
    asked = pending_of(first)
    print(f"first call suspended: id={asked.id} prompt={asked.prompt!r}")
    # Second call: same arguments, the Answer in ctx.answer. This is what
    # the loop does after wait_for.
    reply = Answer(id=asked.id, ok=True, data={"environment": "staging"})
    second = await toolkit.execute(
        "choose_environment", {"service": "billing"}, ToolContext(answer=reply)
    )
    suspended = pending_of(second) is not None
    print(
        f"second call: is_error={second.is_error} output={second.output!r}"
        f" suspended={suspended}"
    )
# --8<-- [end:by-hand]


asyncio.run(main())
