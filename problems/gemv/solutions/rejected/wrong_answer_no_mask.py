# expect: wrong_answer
# expect-message: y: wrote past the end
# Bug: no row mask. Each program handles 8 rows; when m is not a multiple of 8 the last
# program also multiplies the rows after w's end (whatever lies there) and stores their
# results past the end of y. The k mask is there, so every value inside y is right; the
# stores after y are the bug (on a GPU they overwrite a neighbour's data). The fix:
# rows < m, on the weight load and on the store.
import torch
import triton
import triton.language as tl


@triton.jit
def gemv_tiles(w_ptr, x_ptr, y_ptr, m, k, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    acc = tl.zeros([BLOCK_M, BLOCK_K], dtype=tl.float32)
    for k0 in range(0, k, BLOCK_K):
        cols = k0 + tl.arange(0, BLOCK_K)
        col_mask = cols < k
        x = tl.load(x_ptr + cols, mask=col_mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + rows[:, None] * k + cols[None, :], mask=col_mask[None, :], other=0.0)
        acc += w.to(tl.float32) * x[None, :]
    tl.store(y_ptr + rows, tl.sum(acc, axis=1))  # BUG: no mask=rows < m


def solve(w: torch.Tensor, x: torch.Tensor, y: torch.Tensor, m: int, k: int):
    BLOCK_M, BLOCK_K = 8, 512
    gemv_tiles[(triton.cdiv(m, BLOCK_M),)](w, x, y, m, k, BLOCK_M=BLOCK_M, BLOCK_K=BLOCK_K)
