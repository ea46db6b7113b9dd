"""More ways a run raises instead of returning: no API key, a provider that
cannot be reached, a hook, the on_metric callback, and the conversation
store's get and save. Each exception leaves run (or ask) as it was raised.
Last, the per-request timeout the client hands its transport when it has
no timeout_ms."""
import asyncio
import os
import socket

from toolnexus import create_client
from toolnexus.client import UrllibTransport

BASE_URL = os.environ["OPENAI_BASE_URL"]
API_KEY = os.environ["OPENAI_API_KEY"]


def closed_port_url() -> str:
    """The address of a port on 127.0.0.1 that nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def client(**options):
    """An OpenAI-style client of the scripted model, options changed."""
    settings = {
        "base_url": BASE_URL,
        "api_key": API_KEY,
        "style": "openai",
        "model": "gpt-4o-mini",
    }
    settings.update(options)
    return create_client(**settings)


# --8<-- [start:callbacks]
def refuse(event: dict) -> None:
    """A before_llm hook that refuses every request."""
    raise PermissionError("the budget office says no")


def full_sink(event: dict) -> None:
    """An on_metric callback whose sink is full."""
    raise BufferError("the metrics sink is full")


class BrokenStore:
    """A conversation store whose get or save fails."""

    def __init__(self, failing: str) -> None:
        self.failing = failing

    async def get(self, id: str):
        if self.failing == "get":
            raise ConnectionError("the store is down (get)")
        return None

    async def save(self, id: str, messages: list) -> None:
        if self.failing == "save":
            raise ConnectionError("the store is down (save)")


class TimeoutShown(UrllibTransport):
    """The default transport, printing the timeout each request gets."""

    def post(self, url, headers, payload, timeout):
        print(f"  the transport got timeout={timeout} s")
        return super().post(url, headers, payload, timeout)
# --8<-- [end:callbacks]


async def report(label: str, attempt) -> None:
    """Await one run and print what it returned or raised."""
    try:
        result = await attempt
    except Exception as e:
        print(f"{label}: raised {type(e).__name__}: {e}")
    else:
        print(f"{label}: returned {result.status}")


async def main() -> None:
    # --8<-- [start:runs]
    for name in ("OPENAI_API_KEY", "OPENROUTER_API_KEY", "ANTHROPIC_API_KEY"):
        os.environ.pop(name, None)
    await report("no API key", client(api_key=None).run("Hi."))
    hooked = client(hooks={"before_llm": refuse})
    await report("before_llm raises", hooked.run("Hi."))
    await report("on_metric raises", client(on_metric=full_sink).run("Hi."))
    get_fails = client(store=BrokenStore("get"))
    await report("store get raises", get_fails.ask("Hi.", id="ticket-9"))
    save_fails = client(store=BrokenStore("save"))
    await report("store save raises", save_fails.ask("Hi.", id="ticket-9"))
    print("no timeout_ms:")
    await report("  run", client(http_transport=TimeoutShown()).run("Hi."))
    unreachable = client(base_url=closed_port_url(), retries=0)
    await report("unreachable, retries=0", unreachable.run("Hi."))
    # --8<-- [end:runs]


asyncio.run(main())
