# expect: wrong_answer
# expect-message: values out of tolerance
# Bug: a precision mistake. The statistics are taken in float32, but the mean is rounded to
# bfloat16 and x - mean is computed in bfloat16, "to stay in the input's type". On rows near
# 256 neighbouring bfloat16 numbers are 2 apart: the rounded mean is up to 1 off, a whole
# standard deviation of these rows, and every centred value inherits the error (the "offset"
# cases fail by ~100% of their scale). The fix: convert x to float32 once, and keep the mean,
# x - mean and everything after it in float32 until the store.
import torch
import triton
import triton.language as tl


@triton.jit
def layernorm_bf16_centre(x_ptr, gamma_ptr, beta_ptr, y_ptr, n, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    xb = tl.load(x_ptr + row * n + cols, mask=mask, other=0.0)
    mean = (tl.sum(xb.to(tl.float32), axis=0) / n).to(tl.bfloat16)
    d = (xb - mean).to(tl.float32)  # BUG: the subtraction rounds to bfloat16
    d = tl.where(mask, d, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=0) / n + eps)
    g = tl.load(gamma_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(beta_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * n + cols, (d * rstd * g + b).to(tl.bfloat16), mask=mask)


def solve(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, y: torch.Tensor, m: int, n: int):
    BLOCK = triton.next_power_of_2(n)
    layernorm_bf16_centre[(m,)](x, gamma, beta, y, n, 1e-5, BLOCK=BLOCK)
