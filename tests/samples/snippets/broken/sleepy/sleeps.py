import asyncio
import sys
import time
from asyncio import sleep as imported_sleep

if sys.argv[1] == "time":
    time.sleep(0.07)
    time.sleep(0.05)
else:
    asyncio.run(asyncio.sleep(0.07))
    asyncio.run(imported_sleep(0.05))
print("slept")
