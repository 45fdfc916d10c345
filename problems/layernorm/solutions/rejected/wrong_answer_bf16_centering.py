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
    # One program per row, in chunks: a mean pass, a variance pass, a write pass.
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * n
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_row + offs, mask=offs < n, other=0.0).to(tl.float32)
    mean = (tl.sum(acc, axis=0) / n).to(tl.bfloat16)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        xb = tl.load(x_row + offs, mask=offs < n, other=0.0)
        d = tl.where(offs < n, (xb - mean).to(tl.float32), 0.0)  # BUG: rounds to bfloat16
        acc += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n + eps)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        d = (tl.load(x_row + offs, mask=mask, other=0.0) - mean).to(tl.float32)
        g = tl.load(gamma_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(beta_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + row * n + offs, (d * rstd * g + b).to(tl.bfloat16), mask=mask)


def solve(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, y: torch.Tensor, m: int, n: int):
    block = min(triton.next_power_of_2(n), 2048)
    layernorm_bf16_centre[(m,)](x, gamma, beta, y, n, 1e-5, BLOCK=block)
