"""The host's expiry check: toolnexus carries expiresAt but never reads it."""
from datetime import datetime, timezone

from toolnexus import Request


# --8<-- [start:check]
def is_stale(request: Request, now: datetime | None = None) -> bool:
    """True when expiresAt has passed, or cannot be read as a time."""
    if request.expiresAt is None:
        return False  # not run
    now = now or datetime.now(timezone.utc)
    try:
        expires = datetime.fromisoformat(request.expiresAt)
    except ValueError:
        return True  # an expiry nobody can read is treated as passed
    return expires <= now
# --8<-- [end:check]
