"""LayerNorm, the straightforward way: one program per row, three passes over the row in
chunks of BLOCK columns: add up x for the mean, add up (x - mean)² for the variance, then
write (x - mean) · rstd · gamma + beta. Statistics in float32, one rounding to bf16 at the
store. Works for any row width; reads each row three times (a fast version reads it once)."""

import torch
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(x_ptr, gamma_ptr, beta_ptr, y_ptr, n, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)  # row * n can exceed 2^31 on big inputs
    x_row = x_ptr + row * n
    y_row = y_ptr + row * n

    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_row + offs, mask=offs < n, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / n

    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        d = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32) - mean
        acc += tl.where(mask, d * d, 0.0)  # masked lanes would add mean²
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n + eps)

    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        g = tl.load(gamma_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(beta_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_row + offs, ((x - mean) * rstd * g + b).to(tl.bfloat16), mask=mask)


def solve(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, y: torch.Tensor, m: int, n: int):
    layernorm_kernel[(m,)](x, gamma, beta, y, n, 1e-5, BLOCK=1024)
