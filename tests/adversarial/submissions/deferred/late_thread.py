# Threat class 2 (deferred work): solve starts a Python thread and returns at once; the thread
# launches the kernel 0.3 s later, after the runner has reported "done", hoping the timer (and
# the check) miss the work. The referee checks the outputs right after "done" (they are still
# the NaN it poisoned them with) and, on a GPU, freezes the runner between timed calls and
# rejects outputs that change after solve returned.
# expect: wrong_answer (or rejected)
import threading
import time

import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def _later(a, b, c, n):
    time.sleep(0.3)
    block = 1024 if a.is_cuda else 1 << 16
    add_kernel[(triton.cdiv(n, block),)](a, b, c, n, BLOCK=block)


def solve(a, b, c, n):
    threading.Thread(target=_later, args=(a, b, c, n), daemon=True).start()
