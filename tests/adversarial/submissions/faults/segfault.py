# Threat class 11 (faults): read through a null pointer from Python (ctypes), and if that
# somehow returns, write through one: the runner dies with SIGSEGV. The worker reports a
# runtime error and grades the next submission normally.
# expect: runtime_error
import ctypes


def solve(a, b, c, n):
    ctypes.c_int64.from_address(8).value
    ctypes.memset(16, 0, 64)
