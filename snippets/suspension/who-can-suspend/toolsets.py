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
    print("question mapped to False:", await names(builtins={"tools": {"question": False}}))
    print("disable_tools:", await names(disable_tools=["question", "bash", "write"]))
    # --8<-- [end:off]
    # --8<-- [start:traps]
    # The map only switches tools off: naming one tool True keeps all ten.
    print("read mapped to True:", await names(builtins={"tools": {"read": True}}))
    # Unknown names are ignored, so a misspelt one switches nothing off.
    print("'questions' mapped to False:", await names(builtins={"tools": {"questions": False}}))
    # --8<-- [end:traps]
    # --8<-- [start:allow-list]
    allowed = {"read", "grep"}
    only = {"tools": {t.name: t.name in allowed for t in create_builtin_tools()}}
    print("allow-list:", await names(builtins=only))
    # --8<-- [end:allow-list]


asyncio.run(main())
