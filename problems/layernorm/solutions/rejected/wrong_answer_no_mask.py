# expect: wrong_answer
# expect-message: y: wrote past the end
# Bug: no row mask on the store. Each program normalizes 4 rows, in chunks of 256 columns;
# when m is not a multiple of 4 the last program also "normalizes" the rows after x's end
# (their loads are masked to 0, so their outputs are beta) and stores them past the end of y.
# Every value inside y is right; the stores after it are the bug (on a GPU they overwrite a
# neighbour's data). The fix: (rows < m) in the store's mask, as in the loads'.
import torch
import triton
import triton.language as tl


@triton.jit
def layernorm_rows(x_ptr, gamma_ptr, beta_ptr, y_ptr, m, n, eps, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < m
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for start in range(0, n, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = row_mask[:, None] & (cols[None, :] < n)
        acc += tl.load(x_ptr + rows[:, None] * n + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=1) / n
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for start in range(0, n, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = row_mask[:, None] & (cols[None, :] < n)
        x = tl.load(x_ptr + rows[:, None] * n + cols[None, :], mask=mask, other=0.0).to(tl.float32)
        d = tl.where(mask, x - mean[:, None], 0.0)
        acc += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=1) / n + eps)
    for start in range(0, n, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        col_mask = cols < n
        mask = row_mask[:, None] & col_mask[None, :]
        x = tl.load(x_ptr + rows[:, None] * n + cols[None, :], mask=mask, other=0.0).to(tl.float32)
        g = tl.load(gamma_ptr + cols, mask=col_mask, other=0.0).to(tl.float32)
        b = tl.load(beta_ptr + cols, mask=col_mask, other=0.0).to(tl.float32)
        y = (x - mean[:, None]) * rstd[:, None] * g[None, :] + b[None, :]
        tl.store(y_ptr + rows[:, None] * n + cols[None, :], y.to(tl.bfloat16), mask=col_mask[None, :])  # BUG


def solve(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, y: torch.Tensor, m: int, n: int):
    grid = (triton.cdiv(m, 4),)
    layernorm_rows[grid](x, gamma, beta, y, m, n, 1e-5, BLOCK_M=4, BLOCK_N=256)
