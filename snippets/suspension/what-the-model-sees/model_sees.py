"""What the model is shown when a tool that carries a url suspends, in each
client style.

Usage: python model_sees.py openai|anthropic halt|decline
  halt     no wait_for: the run stops, and the program prints the transcript's
           last entry (the halted call's placeholder) and the Request's url;
  decline  wait_for refuses: the program prints the tool result exactly as
           the client posted it to the model in its next request.
"""
import asyncio
import json
import os
import sys

from toolnexus import (
    Answer,
    Request,
    UrllibTransport,
    auth_required,
    create_client,
    create_toolkit,
    tool,
)

# --8<-- [start:tool]
AUTHORIZE_URL = (
    "https://billing.example.com/oauth/authorize?client_id=assistant"
)


@tool
def list_invoices(customer: str):
    """List a customer's invoices from the billing system."""
    return auth_required(
        AUTHORIZE_URL,
        f"Sign in to billing.example.com to list the invoices of {customer}",
    )
# --8<-- [end:tool]


# --8<-- [start:recorder]
def tool_results_in(messages: list) -> list:
    """The tool results in a list of messages, in either style: an OpenAI
    "tool" message, or an Anthropic "tool_result" block inside a user turn."""
    found = []
    for message in messages:
        if message.get("role") == "tool":
            found.append(message)
        elif isinstance(message.get("content"), list):
            found += [
                b for b in message["content"] if b.get("type") == "tool_result"
            ]
    return found


class Recorder(UrllibTransport):
    """The default transport, keeping each request body it posts."""

    def __init__(self) -> None:
        self.bodies: list = []

    def post(self, url, headers, payload, timeout):
        self.bodies.append(payload)
        return super().post(url, headers, payload, timeout)
# --8<-- [end:recorder]


async def main(style: str, mode: str) -> None:
    toolkit = await create_toolkit(extra_tools=[list_invoices], builtins=False)
    recorder = Recorder()

    def refuse(request: Request) -> Answer:
        return Answer(id=request.id, ok=False, reason="declined")

    # --8<-- [start:run]
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style=style,
        model="gpt-4o-mini",
        wait_for=refuse if mode == "decline" else None,
        http_transport=recorder,
    )
    result = await client.run("Which invoices does ACME have?", toolkit)
    print(
        f"[{style} {mode}] status={result.status}"
        f" requests to the model: {len(recorder.bodies)}"
    )
    if result.pending is not None:
        print(f"  the Request's url: {result.pending.url}")
        placeholder = tool_results_in(result.messages)
        print(f"  in the transcript: {json.dumps(placeholder)}")
        print(f"  roles: {[m['role'] for m in result.messages]}")
    else:
        sent = tool_results_in(recorder.bodies[-1]["messages"])
        print(f"  sent to the model: {json.dumps(sent)}")
    # --8<-- [end:run]


asyncio.run(main(sys.argv[1], sys.argv[2]))
