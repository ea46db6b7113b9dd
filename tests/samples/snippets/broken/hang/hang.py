import subprocess
import sys
import time

# A child that would outlive its parent unless the whole process group is killed.
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
print(child.pid, flush=True)  # the test checks this process, and only this one, is gone
time.sleep(120)
