"""MCP elicitation past the server's timeout: the model is told the call
timed out, and the person's late answer still reaches the server."""
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
    # --8<-- [start:slow-person]
    run_over = asyncio.Event()

    async def person(request: Request) -> Answer:
        """A wait_for whose person answers only after the run has ended."""
        print(f"asked ({request.kind}): {request.prompt}")
        await run_over.wait()
        print("the person answers: 4 guests")
        return Answer(id=request.id, ok=True, data={"guests": 4})

    # timeout is in milliseconds: it bounds connecting and every call on
    # this server, the person's answer included. 3 s: enough to connect on
    # a busy machine, too little for this person.
    bookings = {"url": url, "timeout": 3000}
    config = {"mcpServers": {"bookings": bookings}}
    async with await create_toolkit(
        mcp_config=config, wait_for=person, builtins=False
    ) as toolkit:
        result = await client.run("Book a table at Luigi's.", toolkit)
        print(f"status: {result.status}")
        print(f"model said: {result.text}")
        run_over.set()  # the person answers now
        # What the server did with the late answer, from its own log.
        print((await server.stdout.readline()).decode().strip())
    # --8<-- [end:slow-person]
    await stop_server(server)


asyncio.run(main())
