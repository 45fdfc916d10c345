# expect: wrong_answer
# expect-message: NaN or Inf
# Bug: tanh written straight from its definition, (e^2u - 1) / (e^2u + 1). In float32 e^2u
# overflows to inf once 2u > 88.7 (x > 10.05), and inf / inf is NaN. Right on small inputs,
# NaN on the "tails" cases. The fix: a form that cannot overflow, such as
# 0.5 · (1 + tanh(u)) = 1 / (1 + e^-2u), which goes to 0 or 1 gracefully.
import torch
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    e = tl.exp(2.0 * u)
    t = (e - 1.0) / (e + 1.0)  # BUG: inf / inf = NaN for large u
    tl.store(y_ptr + offs, 0.5 * x * (1.0 + t), mask=mask)


def solve(x: torch.Tensor, y: torch.Tensor, n: int):
    BLOCK = 1024
    gelu_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
