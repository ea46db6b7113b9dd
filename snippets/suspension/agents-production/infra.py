"""What every program of this example shares: a tool that needs a person
to pick a region, and the settings of the (scripted) model."""
import os

from toolnexus import ToolContext, pending, tool


# --8<-- [start:tool]
@tool
def create_database(name: str, ctx: ToolContext = None):
    """Create a database. A person picks the region."""
    if ctx is None or ctx.answer is None:
        return pending(
            kind="input",
            id=f"db-{name}",  # one id per database: the ids tell calls apart
            prompt=f"Which region should the {name} database live in?",
        )
    return f"created database {name} in {ctx.answer.data['region']}"
# --8<-- [end:tool]


LLM = {
    "base_url": os.environ["OPENAI_BASE_URL"],
    "api_key": os.environ["OPENAI_API_KEY"],
    "style": "openai",
    "model": "gpt-4o-mini",
}
