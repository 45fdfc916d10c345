"""RMSNorm with residual, fused: each row of x and res read once, y and res_out written once.

Rows up to 16384 wide (the benchmark's 4096 among them): a program loads a
[BLOCK_M, BLOCK_N] tile of whole rows of x and res, adds them in float32, stores the sum as
res_out, sums the squares from registers, and stores y = h · rstd · w. That is 8 bytes per
element, the minimum; the unfused add-then-norm moves 10. Short rows are packed several to a
program. Loads and stores carry evict_first: nothing is read twice, so they should not push
w out of L2.

Wider rows cannot stay in registers: one program per row makes a first pass that writes
res_out and sums the squares, then a second pass that reads res_out back (mostly from L2,
evict_last on the first pass's store) to write y.
"""

import torch
import triton
import triton.language as tl

EPS = 1e-6
MAX_FUSED = 16384


@triton.jit
def add_rmsnorm_fused(x_ptr, res_ptr, w_ptr, y_ptr, out_ptr, m, n, eps, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    col_mask = cols < n
    mask = (rows[:, None] < m) & col_mask[None, :]
    offs = rows[:, None] * n + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first").to(tl.float32)
    r = tl.load(res_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first").to(tl.float32)
    h = x + r  # exact: the sum of two bf16 values fits float32
    tl.store(out_ptr + offs, h.to(tl.bfloat16), mask=mask, eviction_policy="evict_first")
    rstd = 1.0 / tl.sqrt(tl.sum(h * h, axis=1) / n + eps)
    w = tl.load(w_ptr + cols, mask=col_mask, other=0.0).to(tl.float32)
    y = h * rstd[:, None] * w[None, :]
    tl.store(y_ptr + offs, y.to(tl.bfloat16), mask=mask, eviction_policy="evict_first")


@triton.jit
def add_rmsnorm_wide(x_ptr, res_ptr, w_ptr, y_ptr, out_ptr, n, eps, BLOCK: tl.constexpr):
    row_start = tl.program_id(0).to(tl.int64) * n
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + row_start + offs, mask=mask, other=0.0).to(tl.float32)
        r = tl.load(res_ptr + row_start + offs, mask=mask, other=0.0).to(tl.float32)
        h = (x + r).to(tl.bfloat16)
        tl.store(out_ptr + row_start + offs, h, mask=mask, eviction_policy="evict_last")
        hf = h.to(tl.float32)  # normalize what res_out holds, so y matches it
        acc += hf * hf
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n + eps)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        h = tl.load(out_ptr + row_start + offs, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + row_start + offs, (h * rstd * w).to(tl.bfloat16), mask=mask)


def solve(x: torch.Tensor, res: torch.Tensor, w: torch.Tensor, y: torch.Tensor, res_out: torch.Tensor, m: int, n: int):
    if n <= MAX_FUSED:
        block_n = triton.next_power_of_2(n)
        block_m = max(1, min(4096 // block_n, triton.next_power_of_2(m)))
        tile = block_m * block_n
        num_warps = 4 if tile <= 2048 else 8 if tile <= 8192 else 16
        grid = (triton.cdiv(m, block_m),)
        add_rmsnorm_fused[grid](x, res, w, y, res_out, m, n, EPS, BLOCK_M=block_m, BLOCK_N=block_n, num_warps=num_warps)
    else:
        add_rmsnorm_wide[(m,)](x, res, w, y, res_out, n, EPS, BLOCK=4096, num_warps=16)
