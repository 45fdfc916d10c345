# expect: wrong_answer
# expect-message: out of tolerance
# Bug: the column sums for dgamma and dbeta are kept in float16 tiles ("half the registers, and
# the values are small"). Each addition rounds a running sum to 11 significant bits: a lane of
# the 32-row tile adds every 32nd row, and down 300 rows of dy ~ 10 + N(0, 1) its sum reaches
# ~100, where float16's spacing is 1/16: ~6e-4 of the column's sum |dy|, 10x the 5e-5 allowed.
import torch
import triton
import triton.language as tl


@triton.jit
def dx_kernel(x_ptr, dy_ptr, gamma_ptr, mean_ptr, rstd_ptr, dx_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)  # row * n can pass 2^31
    mu = tl.load(mean_ptr + row)
    rs = tl.load(rstd_ptr + row)
    acc_a = tl.zeros([BLOCK], dtype=tl.float32)
    acc_b = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n
        x = tl.load(x_ptr + row * n + cols, mask=mask, other=0.0)
        dy = tl.load(dy_ptr + row * n + cols, mask=mask, other=0.0)
        gamma = tl.load(gamma_ptr + cols, mask=mask, other=0.0)
        g = dy * gamma  # 0 in masked lanes, so they add nothing below
        acc_a += g
        acc_b += g * (x - mu) * rs
    a = tl.sum(acc_a, axis=0) / n
    b = tl.sum(acc_b, axis=0) / n
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n
        x = tl.load(x_ptr + row * n + cols, mask=mask)
        dy = tl.load(dy_ptr + row * n + cols, mask=mask)
        gamma = tl.load(gamma_ptr + cols, mask=mask)
        xhat = (x - mu) * rs
        tl.store(dx_ptr + row * n + cols, rs * (dy * gamma - a - xhat * b), mask=mask)


@triton.jit
def dgamma_dbeta_kernel(
    x_ptr, dy_ptr, mean_ptr, rstd_ptr, dgamma_ptr, dbeta_ptr, m, n, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr
):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    col_mask = cols < n
    acc_g = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float16)
    acc_b = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float16)
    for start in range(0, m, BLOCK_M):
        rows = start + tl.arange(0, BLOCK_M)
        row_mask = rows < m
        mask = row_mask[:, None] & col_mask[None, :]
        offs = rows[:, None].to(tl.int64) * n + cols[None, :]
        x = tl.load(x_ptr + offs, mask=mask, other=0.0)
        dy = tl.load(dy_ptr + offs, mask=mask, other=0.0)
        mu = tl.load(mean_ptr + rows, mask=row_mask, other=0.0)
        rs = tl.load(rstd_ptr + rows, mask=row_mask, other=0.0)
        acc_g = (acc_g + dy * (x - mu[:, None]) * rs[:, None]).to(tl.float16)
        acc_b = (acc_b + dy).to(tl.float16)
    tl.store(dgamma_ptr + cols, tl.sum(acc_g.to(tl.float32), axis=0), mask=col_mask)
    tl.store(dbeta_ptr + cols, tl.sum(acc_b.to(tl.float32), axis=0), mask=col_mask)


def solve(
    x: torch.Tensor,
    dy: torch.Tensor,
    gamma: torch.Tensor,
    mean: torch.Tensor,
    rstd: torch.Tensor,
    dx: torch.Tensor,
    dgamma: torch.Tensor,
    dbeta: torch.Tensor,
    m: int,
    n: int,
):
    dx_kernel[(m,)](x, dy, gamma, mean, rstd, dx, n, BLOCK=1024)
    BLOCK_N = 64
    dgamma_dbeta_kernel[(triton.cdiv(n, BLOCK_N),)](
        x, dy, mean, rstd, dgamma, dbeta, m, n, BLOCK_M=32, BLOCK_N=BLOCK_N
    )
