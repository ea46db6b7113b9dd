"""Which tools a toolkit gives the model, for the ways of building one.

Usage: python toolsets.py
"""
import asyncio

from toolnexus import create_builtin_tools, create_toolkit, tool


@tool
def deploy(environment: str):
    """Deploy the current build to an environment."""
    return f"deployed to {environment}"  # not run


async def names(**options) -> list[str]:
    toolkit = await create_toolkit(extra_tools=[deploy], **options)
    return [t.name for t in toolkit.tools()]


async def main() -> None:
    # --8<-- [start:default]
    print("default:", await names())
    # --8<-- [end:default]
    # --8<-- [start:off]
    print("builtins=False:", await names(builtins=False))
    no_question = {"tools": {"question": False}}
    print("question mapped to False:", await names(builtins=no_question))
    gone = ["question", "bash", "write"]
    print("disable_tools:", await names(disable_tools=gone))
    # --8<-- [end:off]
    # --8<-- [start:traps]
    # The map only switches tools off: naming one True keeps all ten.
    only_read = {"tools": {"read": True}}
    print("read mapped to True:", await names(builtins=only_read))
    # Unknown names are ignored: a misspelt one switches nothing off.
    typo = {"tools": {"questions": False}}
    print("'questions' mapped to False:", await names(builtins=typo))
    # --8<-- [end:traps]
    # --8<-- [start:allow-list]
    allowed = {"read", "grep"}
    only = {"tools": {t.name: t.name in allowed
                      for t in create_builtin_tools()}}
    print("allow-list:", await names(builtins=only))
    # --8<-- [end:allow-list]


asyncio.run(main())
