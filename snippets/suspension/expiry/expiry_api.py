"""What the installed toolnexus offers for expiry, read from the package
itself, and what a Request does with an expiresAt that is no string. No
model involved."""
import toolnexus
from toolnexus import Answer, Request


def naming_expiry(obj: object) -> str:
    """The names of ``obj``'s members that mention expiry, or none."""
    names = sorted(n for n in dir(obj) if "expir" in n.lower())
    return ", ".join(names) or "none"


print(f"Answer members naming expiry: {naming_expiry(Answer)}")
print(f"toolnexus names naming expiry: {naming_expiry(toolnexus)}")
numeric = Request(
    id="refund-A-4004", kind="approval", prompt="Refund?", expiresAt=1700000000
)
kept = type(numeric.expiresAt).__name__
print(f"Request kept expiresAt={numeric.expiresAt!r} ({kept})")
