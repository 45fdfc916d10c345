# expect: wrong_answer
# expect-message: out of tolerance
# Bug: an off-by-one in the k mask. "The last column is k - 1" became cols < k - 1, so the
# last weight of every row is never multiplied in (for k = 1, every y_i comes out 0). The
# fix: cols < k.
import torch
import triton
import triton.language as tl


@triton.jit
def gemv_row(w_ptr, x_ptr, y_ptr, m, k, BLOCK_K: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK_K], dtype=tl.float32)
    for k0 in range(0, k, BLOCK_K):
        cols = k0 + tl.arange(0, BLOCK_K)
        mask = cols < k - 1  # BUG: excludes column k - 1
        w = tl.load(w_ptr + row * k + cols, mask=mask, other=0.0)
        x = tl.load(x_ptr + cols, mask=mask, other=0.0)
        acc += w.to(tl.float32) * x.to(tl.float32)
    tl.store(y_ptr + row, tl.sum(acc, axis=0))


def solve(w: torch.Tensor, x: torch.Tensor, y: torch.Tensor, m: int, k: int):
    gemv_row[(m,)](w, x, y, m, k, BLOCK_K=1024)
