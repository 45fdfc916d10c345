# Threat class 3 (forgery) against the referee's own clock: launch the kernel (asynchronous
# on a GPU), then immediately write a forged "done" (ms = 0.0001) to the control pipe and
# swallow the runner's real "done". The referee's wall clock stops at the forged "done",
# before the kernel has finished; the kernel finishes while the referee freezes the runner,
# so the check and the snapshot may pass. A sound judge must not accept a time that did not
# include the work. On the CPU the interpreter computes synchronously: graded accepted there.
# expect: GPU not accepted; CPU accepted
import json
import os
import sys

import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


_FD = int(sys.argv[sys.argv.index("--ctl-out") + 1])
_runner_cls = sys.modules["__main__"].__dict__.get("Runner")
if _runner_cls is not None:
    _orig_send = _runner_cls.send

    def _send(self, **msg):
        if msg.get("op") in ("done", "launched"):
            return
        _orig_send(self, **msg)

    _runner_cls.send = _send


def solve(a, b, c, n):
    block = 1024 if a.is_cuda else 1 << 16
    add_kernel[(triton.cdiv(n, block),)](a, b, c, n, BLOCK=block)
    os.write(_FD, (json.dumps({"op": "done", "ms": 0.0001}) + "\n").encode())
