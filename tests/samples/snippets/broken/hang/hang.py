import subprocess
import sys
import time

# A child that would outlive its parent unless the whole process group is killed.
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
print("started", flush=True)
time.sleep(120)
