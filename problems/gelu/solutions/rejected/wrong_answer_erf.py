# expect: wrong_answer
# expect-message: values out of tolerance
# Bug: computes the exact GELU, x · Φ(x) = 0.5 · x · (1 + erf(x / sqrt(2))), not the tanh
# approximation the problem asks for. The two curves differ by up to 1.8e-4 · |x| (near
# |x| ≈ 2.6), 18 times the tolerance: close, but a different function.
import torch
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476)), mask=mask)


def solve(x: torch.Tensor, y: torch.Tensor, n: int):
    BLOCK = 1024
    gelu_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
