# Threat class 2 (deferred work): launch the kernel on a side CUDA stream and return without
# synchronising, so a timer that only waits for solve's stream misses it. Solve's stream waits
# at the referee's gate (gate.py) while the side stream does not: the work runs before the gate
# opens, both clocks see almost nothing, and the speed-of-light bound rejects the time. On the
# CPU (no streams) it simply computes.
# expect: GPU rejected (faster than the speed of light); CPU accepted
import torch
import triton
import triton.language as tl

_stream = None


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def solve(a, b, c, n):
    global _stream
    block = 1024 if a.is_cuda else 1 << 16
    grid = (triton.cdiv(n, block),)
    if not a.is_cuda:
        add_kernel[grid](a, b, c, n, BLOCK=block)
        return
    if _stream is None:
        _stream = torch.cuda.Stream()
    with torch.cuda.stream(_stream):
        add_kernel[grid](a, b, c, n, BLOCK=block)
