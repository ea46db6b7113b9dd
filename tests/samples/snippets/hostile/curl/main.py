import json
import os
import subprocess
import sys
import urllib.request

# The mock model, on 127.0.0.1: reachable from inside the network namespace.
request = urllib.request.Request(
    os.environ["OPENAI_BASE_URL"].rstrip("/") + "/chat/completions",
    data=json.dumps({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}]}).encode(),
    headers={"Authorization": f"Bearer {os.environ['OPENAI_API_KEY']}", "Content-Type": "application/json"})
with urllib.request.urlopen(request, timeout=10) as reply:
    print(json.load(reply)["choices"][0]["message"]["content"], flush=True)
# Which network namespace this program runs in (the test compares it with its own).
print("netns:", os.readlink("/proc/self/ns/net"), file=sys.stderr, flush=True)
# A process that is not Python, past the tracer's block: only the namespace stops it.
subprocess.run(["curl", "-sS", "--max-time", "10", "-o", "/dev/null", "https://pypi.org/simple/toolnexus/"],
               check=True)
