"""The host's expiry check: toolnexus carries expiresAt but never reads it."""
from datetime import datetime, timezone

from toolnexus import Request


# --8<-- [start:check]
def is_stale(request: Request, now: datetime | None = None) -> bool:
    """True when expiresAt has passed, or cannot be read as a time with a
    UTC offset."""
    if request.expiresAt is None:
        return False  # not run
    now = now or datetime.now(timezone.utc)
    try:
        expires = datetime.fromisoformat(request.expiresAt)
        # a time without a UTC offset cannot be compared with now:
        # unreadable too
        return expires.tzinfo is None or expires <= now
    except (ValueError, TypeError):  # not a time, or not a string
        return True  # an expiry nobody can read is treated as passed
# --8<-- [end:check]
