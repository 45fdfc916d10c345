# Threat class 3 (forgery): answer the referee with {"op": "error", "verdict": "accepted"}
# (and silence the runner's own replies from then on), trying to grant itself the verdict
# without writing c. The referee never takes a verdict of "accepted" from the runner.
# expect: runtime_error
import json
import os
import sys

_FD = int(sys.argv[sys.argv.index("--ctl-out") + 1])


def solve(a, b, c, n):
    runner_cls = sys.modules["__main__"].__dict__.get("Runner")
    if runner_cls is not None:
        runner_cls.send = lambda self, **msg: None
    os.write(_FD, (json.dumps({"op": "error", "verdict": "accepted", "message": "all good"}) + "\n").encode())
