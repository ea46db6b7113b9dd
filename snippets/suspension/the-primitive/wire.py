"""Request and Answer are plain data: a round trip through JSON loses
nothing. No model involved."""
import dataclasses
import json

from toolnexus import Answer, Request, pending, pending_of

suspension = pending(
    kind="input",
    id="ask-deploy-target",
    prompt="Which environment should I deploy to?",
    data={
        "schema": {
            "type": "object",
            "properties": {"environment": {"type": "string"}},
        }
    },
    expiresAt="2030-01-31T17:00:00Z",
)

# --8<-- [start:request]
request = pending_of(suspension)
stored = json.dumps(dataclasses.asdict(request))
print(stored)
assert Request(**json.loads(stored)) == request  # nothing lost on the way

# The keys are the wire keys: JSON written with a snake_case expires_at is
# refused, not converted.
snake_case = (
    '{"id": "ask-1", "kind": "input", "prompt": "?",'
    ' "expires_at": "2030-01-31T17:00:00Z"}'
)
try:
    Request(**json.loads(snake_case))
except TypeError as e:
    print(f"TypeError: {e}")
# --8<-- [end:request]

# --8<-- [start:answer]
# The host's reply, as it might arrive in an HTTP request body or sit in a
# database column.
body = (
    '{"id": "ask-deploy-target", "ok": true,'
    ' "data": {"environment": "staging"}}'
)
answer = Answer(**json.loads(body))
print(answer)

refusal = Answer(id="ask-deploy-target", ok=False, reason="expired")
print(json.dumps(dataclasses.asdict(refusal)))
assert Answer(**json.loads(json.dumps(dataclasses.asdict(refusal)))) == refusal
# --8<-- [end:answer]
