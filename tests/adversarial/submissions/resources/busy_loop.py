# Threat class 9 (resource attacks): spin forever on the host inside solve. The referee's
# per-call limit ends it.
# expect: time_limit_exceeded
def solve(a, b, c, n):
    while True:
        pass
