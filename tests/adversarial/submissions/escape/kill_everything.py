# Threat class 10 (escape): signal other processes: SIGKILL to every process it may signal
# (kill(-1)), to pid 1 and to its parent. In its own PID namespace it can only reach the
# sandbox's processes, so it kills itself: the worker (the test process) must survive and
# report a runtime error.
# expect: runtime_error
import os
import signal


def solve(a, b, c, n):
    for pid in (1, os.getppid()):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    os.kill(-1, signal.SIGKILL)
