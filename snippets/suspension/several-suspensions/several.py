"""Several suspensions in one assistant turn: answered inline, then with no
wait_for.

Usage: python several.py inline | halt
"""
import asyncio
import json
import os
import sys

from toolnexus import (
    Answer,
    Request,
    create_client,
    create_toolkit,
    pending,
    tool,
)
from toolnexus.client import ProviderError

POSTED: list[str] = []  # what post_status really posted


# --8<-- [start:tools]
@tool
async def deploy(service: str, ctx=None):
    """Deploy one service to production."""
    if ctx is None or ctx.answer is None:
        return pending(
            kind="approval",
            id=f"deploy-{service}",
            prompt=f"Deploy {service} to production?",
        )
    return f"deployed {service}, approved by {ctx.answer.data['approver']}"


@tool
async def post_status(text: str):
    """Post a line to the team's status channel."""
    POSTED.append(text)  # a side effect: it happens as soon as the tool runs
    return f"posted: {text}"
# --8<-- [end:tools]


def make_client(wait_for=None):
    return create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=wait_for,
    )


PROMPT = "Deploy api and web, and tell the team."


# --8<-- [start:inline]
async def inline(toolkit) -> None:
    approvers = {"deploy-api": "dana", "deploy-web": "lee"}

    def wait_for(request: Request) -> Answer:
        print(f"wait_for: {request.id}")
        return Answer(
            id=request.id, ok=True, data={"approver": approvers[request.id]}
        )

    result = await make_client(wait_for).run(PROMPT, toolkit)
    print(f"status: {result.status}")
    for m in result.messages:
        if m["role"] == "tool":
            print(f"{m['tool_call_id']}: {m['content']}")
# --8<-- [end:inline]


# --8<-- [start:halt]
async def halt(toolkit):
    client = make_client()  # no wait_for
    result = await client.run(PROMPT, toolkit)
    print(f"status: {result.status}, pending: {result.pending.id}")
    print(f"post_status ran anyway and posted: {POSTED}")
    calls = [
        call["id"]
        for m in result.messages
        if m["role"] == "assistant"
        for call in m.get("tool_calls") or []
    ]
    answered = [
        m["tool_call_id"] for m in result.messages if m["role"] == "tool"
    ]
    print(f"assistant asked for: {calls}")
    print(f"tool messages saved: {answered}")
    recorded = [(c["name"], c["args"]) for c in result.tool_calls]
    print(f"result.tool_calls: {recorded}")
    return client, result
# --8<-- [end:halt]


# --8<-- [start:send-back]
async def send_back(client, toolkit, result) -> None:
    """Send the saved transcript back with a new user turn, as a chat host
    would."""
    question = "Is anything still waiting on me?"
    try:
        await client.run(question, toolkit, history=result.messages)
    except ProviderError as e:
        print(f"provider refused the transcript: HTTP {e.status}")
        print(json.loads(e.body)["error"]["message"])
# --8<-- [end:send-back]


async def main(mode: str) -> None:
    toolkit = await create_toolkit(
        extra_tools=[deploy, post_status], builtins=False
    )
    if mode == "inline":
        await inline(toolkit)
    else:
        client, result = await halt(toolkit)
        await send_back(client, toolkit, result)


asyncio.run(main(sys.argv[1]))
