# Threat class 3 (forgery): leave with a success code from inside solve, without writing c,
# hoping "exit status 0" reads as success. The referee only accepts outputs it has checked.
# expect: runtime_error
import os


def solve(a, b, c, n):
    os._exit(0)
