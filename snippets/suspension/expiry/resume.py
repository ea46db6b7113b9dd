"""Later, in another process: check the parked Request before resuming.

Usage: python resume.py
"""
import json
from pathlib import Path

from toolnexus import Request

from stale import is_stale

# --8<-- [start:resume]
request = Request(**json.loads(Path("parked.json").read_text()))
if not is_stale(request):
    raise SystemExit("still current: resume as on 'Answer later'")  # not run
print(f"{request.id} expired (expiresAt={request.expiresAt!r}): "
      "not resumed, removed")
Path("parked.json").unlink()
# --8<-- [end:resume]
