"""MCP elicitation with a deadline of the host's own, shorter than the
server's timeout: the person who does not answer in time is declined, and
the server hears it while the call is still open."""
import asyncio
import os

from toolnexus import Answer, Request, create_client, create_toolkit

from bookings_http_server import start_server, stop_server


async def main() -> None:
    server, url = await start_server()
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
    )
    # --8<-- [start:deadline]
    person_answered = asyncio.Event()  # nobody answers in this run

    async def person_with_deadline(request: Request) -> Answer:
        """A wait_for that gives the person less time than the server's
        timeout, and answers the server itself when that time is up."""
        print(f"asked ({request.kind}): {request.prompt}")
        try:
            async with asyncio.timeout(0.05):  # well under 30 000 ms
                await person_answered.wait()
        except TimeoutError:
            print("no answer in time: declining")
            return Answer(id=request.id, ok=False, reason="expired")
        return Answer(  # not run: nobody answers here
            id=request.id, ok=True, data={"guests": 4}
        )

    bookings = {"url": url}  # no timeout key: 30 000 ms
    config = {"mcpServers": {"bookings": bookings}}
    async with await create_toolkit(
        mcp_config=config, wait_for=person_with_deadline, builtins=False
    ) as toolkit:
        result = await client.run("Book a table at Luigi's.", toolkit)
        print(f"status: {result.status}")
        print(f"model said: {result.text}")
        print((await server.stdout.readline()).decode().strip())
    # --8<-- [end:deadline]
    await stop_server(server)


asyncio.run(main())
