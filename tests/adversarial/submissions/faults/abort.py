# Threat class 11 (faults): os.abort() inside solve: SIGABRT, no core dump (RLIMIT_CORE = 0).
# expect: runtime_error
import os


def solve(a, b, c, n):
    os.abort()
