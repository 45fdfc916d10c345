"""Dot product, the straightforward way: each program multiplies 1024 pairs, sums them with
tl.sum and adds its result to out[0] with an atomic add. out[0] is zeroed by a one-program
kernel first: the judge fills outputs with NaN before every call."""

import torch
import triton
import triton.language as tl


@triton.jit
def zero_kernel(out_ptr):
    tl.store(out_ptr, 0.0)


@triton.jit
def dot_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0)  # padding must be 0 for a sum
    b = tl.load(b_ptr + offs, mask=mask, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(a * b, axis=0))


def solve(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor, n: int):
    BLOCK = 1024
    zero_kernel[(1,)](out)
    dot_kernel[(triton.cdiv(n, BLOCK),)](a, b, out, n, BLOCK=BLOCK)
