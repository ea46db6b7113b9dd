"""Replay is not resume, phase 2: the WRONG way to hand a human's reply to a
halted run.

A new client gets the same SQLite store and a wait_for that would answer
the request, then ask() continues the stored conversation. Nothing resumes
the halted tool call: the model is shown the placeholder that phase 1 left
in the transcript as that call's result. wait_for runs only if the model
calls the tool again, as a new call. See answer-later for the fix.
"""
import asyncio
import os

from toolnexus import Answer, Request, create_client, create_toolkit

from park import CONVERSATION, SqliteConversationStore, ask_human

REPLY = "staging"


async def main() -> None:
    toolkit = await create_toolkit(extra_tools=[ask_human], builtins=False)
    # --8<-- [start:replay]
    asked = []

    def wait_for(request: Request) -> Answer:
        asked.append(request.id)
        return Answer(id=request.id, ok=True, data={"value": REPLY})

    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        store=SqliteConversationStore(),
        wait_for=wait_for,
    )
    # Looks like a resume, but only adds a new user turn to the stored chat.
    result = await client.ask(
        "The human has answered. Carry on.", toolkit, id=CONVERSATION
    )
    # --8<-- [end:replay]
    # --8<-- [start:effect]
    print(f"wait_for called: {len(asked)} time(s)")
    print(f"status: {result.status}")
    print(f"model said: {result.text}")
    print(f"the reply {REPLY!r} reached the model: {REPLY in result.text}")
    # --8<-- [end:effect]


asyncio.run(main())
