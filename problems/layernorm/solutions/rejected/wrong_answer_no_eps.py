# expect: wrong_answer
# expect-message: small: y: 
# Bug: a skipped step. The kernel divides by sqrt(var) and leaves eps out. On ordinary rows
# (variance ~1) eps = 1e-5 changes nothing visible, so the first tests pass; on the "small"
# rows (0.003·N(0, 1), variance ~9e-6, comparable to eps) the outputs come out ~1.5x too
# large. eps is part of the definition, not a guard against division by zero. The fix:
# 1 / sqrt(var + eps).
import torch
import triton
import triton.language as tl


@triton.jit
def layernorm_no_eps(x_ptr, gamma_ptr, beta_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # One program per row, in chunks: a mean pass, a variance pass, a write pass.
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * n
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_row + offs, mask=offs < n, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / n
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + offs, mask=offs < n, other=0.0).to(tl.float32)
        d = tl.where(offs < n, x - mean, 0.0)
        acc += d * d
    var = tl.sum(acc, axis=0) / n
    rstd = tl.where(var > 0, 1.0 / tl.sqrt(var), 0.0)  # BUG: no eps
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        g = tl.load(gamma_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(beta_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + row * n + offs, ((x - mean) * rstd * g + b).to(tl.bfloat16), mask=mask)


def solve(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, y: torch.Tensor, m: int, n: int):
    layernorm_no_eps[(m,)](x, gamma, beta, y, n, BLOCK=min(triton.next_power_of_2(n), 2048))
