"""Two ways a built-in's name stops meaning the built-in: a host tool of the
same name replaces it, and with `question` switched off, a call to `question`
is a call to no tool: an error result, not a suspension. No model: the
toolkit is called as the run loop calls it.

Usage: python same_names.py
"""
import asyncio

from toolnexus import create_toolkit, pending_of, tool


@tool
def read(path: str):
    """The host's own read: it reads nothing, it says whose it is."""
    return f"host read of {path}"


async def main() -> None:
    # A host tool named like a built-in: the toolkit holds one read, the host's.
    toolkit = await create_toolkit(extra_tools=[read])
    names = [t.name for t in toolkit.tools()]
    print(f"tools named read: {names.count('read')}")
    result = await toolkit.execute("read", {"path": "notes.txt"})
    print(f"read gave: {result.output!r}")
    # question switched off, and a call to it all the same.
    no_question = {"tools": {"question": False}}
    toolkit = await create_toolkit(builtins=no_question)
    print(f"question declared: {'question' in [t.name for t in toolkit.tools()]}")
    args = {"questions": [{"question": "Which environment?"}]}
    result = await toolkit.execute("question", args)
    print(f"question gave: {result.output!r}, is_error={result.is_error}, "
          f"suspended: {pending_of(result) is not None}")


asyncio.run(main())
