# Threat class 6 (detection): inspect the caller's frames for the runner's request and cheat
# (half the work) only when it is a timed call, i.e. only during benchmarks. The referee checks
# the output of every timed run. On the CPU nothing is timed: it computes honestly.
# expect: GPU wrong_answer; CPU accepted
import sys

import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def _timed() -> bool:
    f = sys._getframe(1)
    while f is not None:
        msg = f.f_locals.get("msg")
        if isinstance(msg, dict) and msg.get("op") == "call":
            return bool(msg.get("timed"))
        f = f.f_back
    return False


def solve(a, b, c, n):
    work = n // 2 if _timed() else n
    block = 1024 if a.is_cuda else 1 << 16
    add_kernel[(triton.cdiv(work, block),)](a, b, c, work, BLOCK=block)
