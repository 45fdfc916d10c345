"""LayerNorm at memory speed: each row read once.

Rows up to 16384 wide (the benchmark's 4096 among them) take a fused single pass: a program
loads a [BLOCK_M, BLOCK_N] tile holding BLOCK_M whole rows into registers, takes the mean,
centres, corrects the centring by what the centred values still sum to (the mean's own
rounding: on rows of ±256 + N(0, 1) it moved outputs near zero by 3x their tolerance on an
H100), takes the variance of the centred values (two-pass statistics, from registers),
normalizes and stores. x is read once and y written once; gamma and beta are
loaded once per program and stay in L1/L2. Short rows are packed several to a program so
each program still moves a few thousand elements.

Wider rows do not fit: one program per row streams it in chunks with Welford's update per
lane (count, mean, M2), merges the lanes with Chan's formula for many parts (the row mean is
the count-weighted mean of the lane means; M2 adds each lane's M2 and its count times its
squared distance to the row mean), then re-reads the row to write y. The row is 2 reads and
1 write there, still with no cancellation: the variance is never formed as E[x²] - E[x]².
"""

import torch
import triton
import triton.language as tl

EPS = 1e-5
MAX_FUSED = 16384


@triton.jit
def layernorm_fused(x_ptr, gamma_ptr, beta_ptr, y_ptr, m, n, eps, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    col_mask = cols < n
    mask = (rows[:, None] < m) & col_mask[None, :]
    offs = rows[:, None] * n + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first").to(tl.float32)
    mean = tl.sum(x, axis=1) / n
    d = tl.where(mask, x - mean[:, None], 0.0)
    # The mean is only as good as fp32 near the row's level (half an ulp of 256 is 1.5e-5, and
    # the GPU's fast division adds more): subtract what the centred values still sum to.
    d = tl.where(mask, d - (tl.sum(d, axis=1) / n)[:, None], 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=1) / n + eps)
    g = tl.load(gamma_ptr + cols, mask=col_mask, other=0.0).to(tl.float32)
    b = tl.load(beta_ptr + cols, mask=col_mask, other=0.0).to(tl.float32)
    y = d * rstd[:, None] * g[None, :] + b[None, :]
    tl.store(y_ptr + offs, y.to(tl.bfloat16), mask=mask)


@triton.jit
def layernorm_welford(x_ptr, gamma_ptr, beta_ptr, y_ptr, n, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * n
    y_row = y_ptr + row * n
    mean = tl.zeros([BLOCK], dtype=tl.float32)
    m2 = tl.zeros([BLOCK], dtype=tl.float32)
    count = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_row + offs, mask=mask, other=0.0, eviction_policy="evict_last").to(tl.float32)
        count = tl.where(mask, count + 1.0, count)
        delta = x - mean
        mean = tl.where(mask, mean + delta / tl.maximum(count, 1.0), mean)
        m2 = tl.where(mask, m2 + delta * (x - mean), m2)
    # Chan et al. over all lanes at once (a lane that saw nothing has count 0 and adds nothing).
    mean_r = tl.sum(count * mean, axis=0) / n
    m2_r = tl.sum(m2 + count * (mean - mean_r) * (mean - mean_r), axis=0)
    rstd = 1.0 / tl.sqrt(m2_r / n + eps)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_row + offs, mask=mask, other=0.0, eviction_policy="evict_first").to(tl.float32)
        g = tl.load(gamma_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(beta_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_row + offs, ((x - mean_r) * rstd * g + b).to(tl.bfloat16), mask=mask)


def solve(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, y: torch.Tensor, m: int, n: int):
    if n <= MAX_FUSED:
        block_n = triton.next_power_of_2(n)
        block_m = max(1, min(4096 // block_n, triton.next_power_of_2(m)))
        tile = block_m * block_n
        num_warps = 4 if tile <= 2048 else 8 if tile <= 8192 else 16
        grid = (triton.cdiv(m, block_m),)
        layernorm_fused[grid](x, gamma, beta, y, m, n, EPS, BLOCK_M=block_m, BLOCK_N=block_n, num_warps=num_warps)
    else:
        layernorm_welford[(m,)](x, gamma, beta, y, n, EPS, BLOCK=4096, num_warps=16)
