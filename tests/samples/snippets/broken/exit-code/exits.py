import sys

print("about to fail", file=sys.stderr)
sys.exit(3)
