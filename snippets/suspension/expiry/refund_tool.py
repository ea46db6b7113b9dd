"""A refund tool whose approval expires when the return window closes."""
from toolnexus import ToolContext, pending, tool

# When each order's return window closes. Fixed dates, so that the examples
# give the same result whenever they run; A-3003's was typed in by hand.
RETURN_WINDOW_CLOSES = {
    "A-1001": "2000-01-31T23:59:59+00:00",
    "A-2002": "2999-01-31T23:59:59+00:00",
    "A-3003": "end of January",
}


# --8<-- [start:tool]
@tool
def refund(order_id: str, ctx: ToolContext = None):
    """Refund an order in full."""
    if ctx is None or ctx.answer is None:
        return pending(kind="approval", id=f"refund-{order_id}",
                       prompt=f"Refund order {order_id}?",
                       expiresAt=RETURN_WINDOW_CLOSES[order_id])
    approver = ctx.answer.data["approver"]
    return f"refunded {order_id}, approved by {approver}"
# --8<-- [end:tool]
