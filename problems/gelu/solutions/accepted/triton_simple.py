"""GELU (tanh approximation), the straightforward way: one program per block of 1024 elements.

Triton has no tanh in `tl` (libdevice's tanh does not run under the CPU interpreter), so the
kernel uses the identity 0.5 · (1 + tanh(u)) = sigmoid(2u): y = x · sigmoid(2u). It is also
the better float32 form: it does not cancel in 1 + tanh(u) for negative x.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n  # the last block may run past the end
    x = tl.load(x_ptr + offs, mask=mask)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)  # sqrt(2/pi) · (x + 0.044715 x^3)
    tl.store(y_ptr + offs, x * tl.sigmoid(2.0 * u), mask=mask)


def solve(x: torch.Tensor, y: torch.Tensor, n: int):
    BLOCK = 1024
    gelu_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
