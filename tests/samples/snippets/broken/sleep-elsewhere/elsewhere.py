import asyncio
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent / "vendor" / "site-packages"))
import idle_server  # noqa: E402


async def main() -> None:
    await idle_server.idle_async()
    try:
        await asyncio.wait_for(asyncio.sleep(float("inf")), 0.05)
    except asyncio.TimeoutError:
        print("the endless sleep was cut short")


idle_server.idle()
asyncio.run(main())
