# Threat class 9 (resource attack): take all the GPU's free memory while importing, in 1 GiB
# torch allocations kept alive, then compute honestly. The runner's allocator cap refuses past
# the problem's budget (an OutOfMemoryError at import), and the referee measures the runner's
# GPU memory itself (gpumem.py): memory_limit_exceeded, and the next submission on the worker is
# graded and timed as before.
# expect: GPU memory_limit_exceeded
import torch
import triton
import triton.language as tl

_hoard = []
if torch.cuda.is_available():
    while True:
        _hoard.append(torch.empty(1 << 30, dtype=torch.uint8, device="cuda"))


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def solve(a, b, c, n):
    add_kernel[(triton.cdiv(n, 1024),)](a, b, c, n, BLOCK=1024)
