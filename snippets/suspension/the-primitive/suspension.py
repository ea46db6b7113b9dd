"""A suspension is a tool result: pending(), auth_required() and
pending_of(). No model involved."""
from toolnexus import ToolResult, auth_required, pending, pending_of

# --8<-- [start:pending]
suspension = pending(
    kind="input",
    id="ask-deploy-target",
    prompt="Which environment should I deploy to?",
    data={
        "schema": {
            "type": "object",
            "properties": {
                "environment": {
                    "type": "string",
                    "enum": ["staging", "production"],
                }
            },
            "required": ["environment"],
        }
    },
    expiresAt="2030-01-31T17:00:00Z",
)
# An ordinary ToolResult: an error result whose metadata holds the Request.
held = suspension.metadata["pending"]
print(
    f"{type(suspension).__name__}: is_error={suspension.is_error}"
    f" output={suspension.output!r}"
)
print(
    f"metadata['pending']: {type(held).__name__} id={held.id}"
    f" kind={held.kind} expiresAt={held.expiresAt}"
)
# --8<-- [end:pending]

# --8<-- [start:auth-required]
login = auth_required(
    "https://id.example.com/authorize?client_id=deploy-bot",
    "Sign in to the deploy service",
)
login_request = pending_of(login)
print(f"kind={login_request.kind} id={login_request.id}")
print(f"url={login_request.url}")
print(f"output: {login.output!r}")  # the prompt, then the link on its own line
# --8<-- [end:auth-required]

# --8<-- [start:pending-of]
ordinary = ToolResult(output="deployed", is_error=False)
failed = ToolResult(output="disk full", is_error=True)
print(f"ordinary: {pending_of(ordinary)}")
print(f"failed: {pending_of(failed)}")  # is_error alone is not a suspension
print(f"suspended: {pending_of(suspension).id}")
# --8<-- [end:pending-of]
