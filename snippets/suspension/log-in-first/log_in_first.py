"""Log in first: a tool that needs the user's access token suspends with
kind "authorization".

Usage: python log_in_first.py signs-in | never-signs-in | answers-too-early
"""
import asyncio
import os
import sys

from toolnexus import (
    Answer,
    Request,
    auth_required,
    create_client,
    create_toolkit,
    tool,
)

# --8<-- [start:tool]
AUTHORIZE_URL = (
    "https://git.example.com/oauth/authorize"
    "?client_id=review-bot&scope=repo"
)

# Stands in for wherever your host keeps tokens (a database, a secrets store).
# Only the OAuth callback writes to it; the tool only reads it.
TOKENS: dict[str, dict[str, str]] = {}


@tool
def list_pull_requests(repo: str):
    """List the open pull requests of a repository the user can see."""
    login = TOKENS.get("git.example.com")
    if login is None:
        # No token yet: send the user to log in. The token never travels in an
        # Answer; the tool finds it where the login flow stored it.
        return auth_required(
            AUTHORIZE_URL,
            "Sign in to git.example.com so I can read your pull requests",
        )
    # A real tool calls the API with login["access_token"]. Never echo a
    # token to the model.
    return (
        f"{repo}, as seen by {login['user']}:"
        " #41 fix login redirect, #44 bump deps"
    )
# --8<-- [end:tool]


# --8<-- [start:callback]
LOGGED_IN = asyncio.Event()  # set by the callback, awaited by wait_for


def oauth_callback(code: str) -> None:
    """Your redirect URI's handler: trade the code for a token, store it,
    wake the waiter. (The call to the provider's token endpoint is left out;
    its result is made up here.)"""
    TOKENS["git.example.com"] = {"access_token": f"gho_{code}", "user": "dana"}
    LOGGED_IN.set()
# --8<-- [end:callback]


# --8<-- [start:wait-for]
# Minutes in a real host; one second keeps this example quick.
LOGIN_TIMEOUT_S = 1.0


def wait_for_login(user_signs_in: bool):
    async def wait_for(request: Request) -> Answer:
        print(f"push to user: {request.prompt}: {request.url}")
        if user_signs_in:
            # The user clicks, logs in, and is redirected to your callback.
            loop = asyncio.get_running_loop()
            loop.call_later(0.05, oauth_callback, "c0ffee42")
        try:
            async with asyncio.timeout(LOGIN_TIMEOUT_S):
                await LOGGED_IN.wait()
        except TimeoutError:
            print("nobody logged in")
            return Answer(id=request.id, ok=False, reason="expired")
        # ok=True means "try again now". No data: the token is in TOKENS.
        return Answer(id=request.id, ok=True)

    return wait_for
# --8<-- [end:wait-for]


# --8<-- [start:too-early]
async def answer_too_early(request: Request) -> Answer:
    """A mistake: says ok as soon as the link is pushed, before anyone
    logged in."""
    print(f"push to user: {request.prompt}: {request.url}")
    return Answer(id=request.id, ok=True)
# --8<-- [end:too-early]


async def main(mode: str) -> None:
    toolkit = await create_toolkit(
        extra_tools=[list_pull_requests], builtins=False
    )
    # --8<-- [start:run]
    hosts = {
        "signs-in": wait_for_login(user_signs_in=True),
        "never-signs-in": wait_for_login(user_signs_in=False),
        "answers-too-early": answer_too_early,
    }
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=hosts[mode],
    )
    result = await client.run(
        "Which pull requests are open on acme/web?", toolkit
    )
    print(f"status: {result.status}")
    print(f"model said: {result.text}")
    # --8<-- [end:run]


asyncio.run(main(sys.argv[1]))
