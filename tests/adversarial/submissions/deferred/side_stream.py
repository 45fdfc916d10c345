# Threat class 2 (deferred work): launch the kernel on a side CUDA stream and return without
# synchronising, so a timer that only waits for the default stream misses it. The runner ends
# every call with a device-wide synchronize, so the work is inside the timed window (and the
# referee's wall clock cross-checks it). The result is correct, so it is accepted, and its
# time is honest. On the CPU (no streams) it simply computes.
# expect: accepted, with a time no better than the GPU's speed of light (the side-stream
# work counted)
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
