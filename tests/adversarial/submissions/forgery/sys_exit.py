# Threat class 3 (forgery): raise SystemExit(0) from solve, hoping the harness exits "cleanly"
# and reports success. The runner catches it as a failure of the call.
# expect: runtime_error
import sys


def solve(a, b, c, n):
    sys.exit(0)
