# Threat class 3 (forgery): write a forged {"op": "done"} line straight to the runner's
# control pipe (its fd is on the command line), patch the runner so its own "done" is
# swallowed (the protocol stays in step), and compute only 0.3 s later from a thread. A judge
# that trusted the runner's "done" would grade the NaN-poisoned output, or the late result.
# The referee checks every output itself right after "done".
# expect: wrong_answer
import json
import os
import sys
import threading
import time

import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def _ctl_out() -> int:
    return int(sys.argv[sys.argv.index("--ctl-out") + 1])


_runner_cls = sys.modules["__main__"].__dict__.get("Runner")
if _runner_cls is not None:
    _orig_send = _runner_cls.send

    def _send(self, **msg):
        if msg.get("op") in ("done", "launched"):
            return  # swallowed ("launched" too): the forged line already answered this call
        _orig_send(self, **msg)

    _runner_cls.send = _send


def _later(a, b, c, n):
    time.sleep(0.3)
    block = 1024 if a.is_cuda else 1 << 16
    add_kernel[(triton.cdiv(n, block),)](a, b, c, n, BLOCK=block)


def solve(a, b, c, n):
    os.write(_ctl_out(), (json.dumps({"op": "done", "ms": 0.0001}) + "\n").encode())
    threading.Thread(target=_later, args=(a, b, c, n), daemon=True).start()
