"""A small MCP server (stdio) whose tools ask the user for input through
elicitation.

book_table.py and connect_calendar.py start it as a subprocess; it is not
run on its own. Its stdout is the MCP channel, so it never prints.
"""
from mcp.server.fastmcp import Context, FastMCP
from pydantic import BaseModel, Field

server = FastMCP("bookings")


# --8<-- [start:form]
class Booking(BaseModel):
    """The form the user fills in: flat fields of primitive types only."""

    guests: int = Field(description="Number of guests")
    time: str = Field(description="Arrival time, HH:MM")


@server.tool(structured_output=False)
async def book_table(restaurant: str, ctx: Context) -> str:
    """Book a table at a restaurant; the user gives the party size and time."""
    question = f"Table at {restaurant}: how many guests, and when?"
    reply = await ctx.elicit(question, schema=Booking)
    if reply.action == "accept":
        booking = reply.data  # a validated Booking
        return (
            f"booked {restaurant} for {booking.guests} guests"
            f" at {booking.time}"
        )
    return f"not booked: the user chose {reply.action!r}"
# --8<-- [end:form]


# --8<-- [start:url]
@server.tool(structured_output=False)
async def connect_calendar(ctx: Context) -> str:
    """Connect the user's calendar; the user signs in on its own page."""
    reply = await ctx.elicit_url(
        "Sign in to your calendar so the booking can be added.",
        url="https://calendar.example.com/authorize?client_id=bookings",
        elicitation_id="calendar-signin",
    )
    # The sign-in itself happens in the browser, never through the MCP client;
    # the reply only says whether the user agreed to go there.
    return f"calendar sign-in: the user chose {reply.action!r}"
# --8<-- [end:url]


if __name__ == "__main__":
    server.run()  # stdio
