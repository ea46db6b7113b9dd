"""Push the link first: a streaming host sends the login link to the user
as soon as the tool suspends."""
import asyncio
import os

from toolnexus import (
    Answer,
    Request,
    auth_required,
    create_client,
    create_toolkit,
    tool,
)

AUTHORIZE_URL = (
    "https://billing.example.com/oauth/authorize"
    "?client_id=assistant&scope=invoices.read"
)

# Stands in for your token store. Only the OAuth callback writes to it.
TOKENS: dict[str, dict[str, str]] = {}
LOGGED_IN = asyncio.Event()
PUSHED: set[str] = set()  # ids of the requests whose link went out


# --8<-- [start:tool]
@tool
def list_invoices(customer: str):
    """List a customer's invoices from the billing system."""
    login = TOKENS.get("billing.example.com")
    if login is None:
        return auth_required(
            AUTHORIZE_URL,
            "Sign in to billing.example.com so I can read invoices",
        )
    return (
        f"invoices of {customer}, read as {login['user']}:"
        " INV-7 paid, INV-9 open"
    )
# --8<-- [end:tool]


def oauth_callback(code: str) -> None:
    """Your redirect URI's handler (token exchange left out): store the
    token, wake the waiter."""
    TOKENS["billing.example.com"] = {
        "access_token": f"tok_{code}",
        "user": "dana",
    }
    LOGGED_IN.set()


# --8<-- [start:push]
def push_link(request: Request) -> None:
    """Send the link to the user's chat, phone or inbox. Here: print it."""
    print(f"  -> pushed to user: {request.prompt}: {request.url}")
    PUSHED.add(request.id)
    # Stand-in for the user: they open the link and log in a moment later.
    asyncio.get_running_loop().call_later(0.05, oauth_callback, "c0ffee42")
# --8<-- [end:push]


# --8<-- [start:wait-for]
async def wait_for_login(request: Request) -> Answer:
    """Only waits: the link is already on its way, because the stream loop
    pushed it."""
    pushed = request.id in PUSHED
    print(f"  wait_for: {request.id}, link already pushed: {pushed}")
    try:
        async with asyncio.timeout(1.0):  # minutes in a real host
            await LOGGED_IN.wait()
    except TimeoutError:  # not run: the login arrives in time here
        return Answer(id=request.id, ok=False, reason="expired")
    return Answer(id=request.id, ok=True)
# --8<-- [end:wait-for]


async def main() -> None:
    toolkit = await create_toolkit(extra_tools=[list_invoices], builtins=False)
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=wait_for_login,
    )
    # --8<-- [start:stream]
    prompt = "Which invoices does ACME have?"
    async for event in client.stream(prompt, toolkit):
        kind = event["type"]
        if kind == "pending":
            # Emitted before wait_for starts: push the link now.
            print(f"event: pending ({event['request'].kind})")
            push_link(event["request"])
        elif kind == "tool_call":
            print(f"event: tool_call {event['name']} {event['args']}")
        elif kind == "tool_result":
            print(
                f"event: tool_result {event['output']!r}"
                f" (is_error={event['is_error']})"
            )
        elif kind == "text":
            print(f"event: text {event['delta']!r}")
        elif kind == "done":
            print(f"event: done, status={event['result'].status}")
        else:
            print(f"event: {kind}")
    # --8<-- [end:stream]


asyncio.run(main())
