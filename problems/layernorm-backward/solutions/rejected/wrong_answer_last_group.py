# expect: wrong_answer
# expect-message: dgamma
# Bug: an off-by-one between the two stages of the column reduction. Stage 1 gives each
# program a group of GROUP rows (grid: cdiv(m, GROUP), right) and stores the group's partial
# dgamma and dbeta as one row of scratch; stage 2 adds up m // GROUP partial rows, rounding
# down, so the last, partial group's rows are missing from dgamma and dbeta whenever m is not
# a multiple of GROUP (and every row is missing when m < GROUP). dx is right.
import torch
import triton
import triton.language as tl

GROUP = 8


@triton.jit
def rows_kernel(
    x_ptr, dy_ptr, gamma_ptr, mean_ptr, rstd_ptr, dx_ptr, pg_ptr, pb_ptr, m, n, GROUP: tl.constexpr, BLOCK_N: tl.constexpr
):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < n
    gamma = tl.load(gamma_ptr + cols, mask=mask, other=0.0)
    acc_g = tl.zeros([BLOCK_N], dtype=tl.float32)
    acc_b = tl.zeros([BLOCK_N], dtype=tl.float32)
    for r in range(GROUP):
        row = pid * GROUP + r
        if row < m:
            offs = row.to(tl.int64) * n + cols
            x = tl.load(x_ptr + offs, mask=mask, other=0.0)
            dy = tl.load(dy_ptr + offs, mask=mask, other=0.0)
            rs = tl.load(rstd_ptr + row)
            xhat = (x - tl.load(mean_ptr + row)) * rs
            g = dy * gamma
            a = tl.sum(g, axis=0) / n
            b = tl.sum(g * xhat, axis=0) / n
            tl.store(dx_ptr + offs, rs * (g - a - xhat * b), mask=mask)
            acc_g += dy * xhat
            acc_b += dy
    tl.store(pg_ptr + pid * n + cols, acc_g, mask=mask)
    tl.store(pb_ptr + pid * n + cols, acc_b, mask=mask)


@triton.jit
def sum_partials(pg_ptr, pb_ptr, dgamma_ptr, dbeta_ptr, groups, n, BLOCK: tl.constexpr):
    cols = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n
    acc_g = tl.zeros([BLOCK], dtype=tl.float32)
    acc_b = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(groups):
        acc_g += tl.load(pg_ptr + i * n + cols, mask=mask, other=0.0)
        acc_b += tl.load(pb_ptr + i * n + cols, mask=mask, other=0.0)
    tl.store(dgamma_ptr + cols, acc_g, mask=mask)
    tl.store(dbeta_ptr + cols, acc_b, mask=mask)


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
    groups = triton.cdiv(m, GROUP)
    pg = torch.empty((groups, n), dtype=torch.float32, device=x.device)
    pb = torch.empty((groups, n), dtype=torch.float32, device=x.device)
    block_n = triton.next_power_of_2(n)
    rows_kernel[(groups,)](x, dy, gamma, mean, rstd, dx, pg, pb, m, n, GROUP=GROUP, BLOCK_N=block_n)
    sum_partials[(triton.cdiv(n, 64),)](pg, pb, dgamma, dbeta, m // GROUP, n, BLOCK=64)
