"""The durable host's tools. Request ids are derived from the arguments, so
a resumed run that makes the same call again suspends with the same id and
meets its stored Answer."""
from __future__ import annotations

import hashlib

from toolnexus import ToolContext, pending, tool


# --8<-- [start:tool]
@tool
def ask_human(question: str, ctx: ToolContext = None):
    """Ask a person a question; the run waits (or halts) until they reply."""
    if ctx is None or ctx.answer is None:
        request_id = "ask-" + hashlib.sha1(question.encode()).hexdigest()[:10]
        schema = {
            "type": "object",
            "properties": {"value": {"type": "string"}},
        }
        return pending(
            kind="input",
            id=request_id,
            prompt=question,
            data={"schema": schema},
        )
    return f"the person replied: {ctx.answer.data['value']}"
# --8<-- [end:tool]


TOOLS = [ask_human]
