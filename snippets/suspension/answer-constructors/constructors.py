"""answer_output and answer_declined (toolnexus >= 0.19.0): the Answers they
build and what they refuse."""
import json

from toolnexus import Answer, answer_declined, answer_output

# --8<-- [start:build]
print(answer_output("ask-env", "staging"))
reply = {"environment": "staging", "region": "eu"}
print(answer_output("ask-env", json.dumps(reply)))
print(answer_declined("ask-env"))
print(answer_declined("ask-env", reason="expired"))
# --8<-- [end:build]

# --8<-- [start:refuse]
try:
    answer_output("ask-env", {"environment": "staging"})  # a dict, not a str
except TypeError as e:
    print(f"TypeError: {e}")

try:
    # The reason must be declined, cancelled or expired.
    answer_declined("ask-env", reason="timeout")
except ValueError as e:
    print(f"ValueError: {e}")

# The Answer dataclass itself checks nothing:
print(Answer(id="ask-env", ok=False, reason="timeout"))
# --8<-- [end:refuse]
