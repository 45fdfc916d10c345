"""Sum reduction, the straightforward way: each program sums 1024 elements with tl.sum and
adds its result to out[0] with an atomic add. out[0] is zeroed by a tiny kernel first (the
judge fills outputs with NaN before every call, so nothing may be assumed about them)."""

import torch
import triton
import triton.language as tl


@triton.jit
def zero_kernel(out_ptr):
    tl.store(out_ptr, 0.0)


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)  # padding must be 0 for a sum
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


def solve(x: torch.Tensor, out: torch.Tensor, n: int):
    BLOCK = 1024
    zero_kernel[(1,)](out)
    sum_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
