# expect: wrong_answer
# expect-message: wrote past the end
# Bug: no row mask on the stores. Each program handles 4 rows; when m is not a multiple of
# 4 the last program also processes the rows after the inputs' ends (loads masked to 0) and
# stores them past the end of res_out and y. Every value inside the outputs is right; the
# stores after them are the bug (on a GPU they overwrite a neighbour's data). The fix:
# (rows < m) in the stores' masks, as in the loads'.
import torch
import triton
import triton.language as tl


@triton.jit
def add_rmsnorm_rows(x_ptr, res_ptr, w_ptr, y_ptr, out_ptr, m, n, eps, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < m
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for start in range(0, n, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        col_mask = cols < n
        offs = rows[:, None] * n + cols[None, :]
        mask = row_mask[:, None] & col_mask[None, :]
        h = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        h += tl.load(res_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        tl.store(out_ptr + offs, h.to(tl.bfloat16), mask=col_mask[None, :])  # BUG: no rows < m
        acc += h * h
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=1) / n + eps)
    for start in range(0, n, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        col_mask = cols < n
        offs = rows[:, None] * n + cols[None, :]
        mask = row_mask[:, None] & col_mask[None, :]
        h = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        h += tl.load(res_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=col_mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + offs, (h * rstd[:, None] * w[None, :]).to(tl.bfloat16), mask=col_mask[None, :])  # BUG


def solve(x: torch.Tensor, res: torch.Tensor, w: torch.Tensor, y: torch.Tensor, res_out: torch.Tensor, m: int, n: int):
    add_rmsnorm_rows[(triton.cdiv(m, 4),)](x, res, w, y, res_out, m, n, 1e-6, BLOCK_M=4, BLOCK_N=256)
