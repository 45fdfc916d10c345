# expect: wrong_answer
# expect-message: was it written?
# Bug: an off-by-one in the mask. "The last valid index is n - 1" became offs < n - 1, so
# y[n - 1] is never written and keeps the NaN the judge fills outputs with (for n = 1,
# nothing is written at all). The fix: offs < n.
import torch
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n - 1  # BUG: excludes index n - 1
    x = tl.load(x_ptr + offs, mask=mask)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tl.store(y_ptr + offs, x * tl.sigmoid(2.0 * u), mask=mask)


def solve(x: torch.Tensor, y: torch.Tensor, n: int):
    BLOCK = 1024
    gelu_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
