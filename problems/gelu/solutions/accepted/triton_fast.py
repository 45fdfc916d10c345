"""GELU (tanh approximation) at memory speed: one pass, wide accesses, folded constants.

Each program handles 4096 elements with 8 warps: 16 floats per thread, which Triton turns
into four 128-bit loads and stores per thread, all in flight at once. The math is folded into
y = x / (1 + 2^(x · (A + B · x²))) with A = -2·sqrt(2/pi)·log2(e) and B = 0.044715·A: three
multiplies, an add, one exp2 and one division per element, which the GPU hides entirely
behind the 8 bytes each element moves. For x < -10 the exp2 overflows to inf and y to -0,
within the tolerance of the true value (below 1e-30).
"""

import torch
import triton
import triton.language as tl

A = -2.0 * 0.7978845608028654 * 1.4426950408889634  # -2·sqrt(2/pi)·log2(e)
B = 0.044715 * A


@triton.jit
def gelu_kernel(x_ptr, y_ptr, n, A: tl.constexpr, B: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    e = tl.exp2(x * (A + B * x * x))  # = exp(-2u)
    tl.store(y_ptr + offs, x / (1.0 + e), mask=mask)


def solve(x: torch.Tensor, y: torch.Tensor, n: int):
    BLOCK = 4096
    gelu_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, A=A, B=B, BLOCK=BLOCK, num_warps=8)
