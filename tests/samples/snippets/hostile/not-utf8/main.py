import sys

sys.stdout.buffer.write(b"caf\xe9\n")
