"""Matrix-vector product, the straightforward way: one program per row of w.

The program walks its row in chunks of 1024, multiplies each chunk by the matching chunk of
x in float32 (bf16 x bf16 is exact there) and adds it into a 1024-wide float32
accumulator, which it sums once at the end.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def gemv_row(w_ptr, x_ptr, y_ptr, m, k, BLOCK_K: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK_K], dtype=tl.float32)
    for k0 in range(0, k, BLOCK_K):
        cols = k0 + tl.arange(0, BLOCK_K)
        mask = cols < k  # the last chunk of the row may be partial
        w = tl.load(w_ptr + row * k + cols, mask=mask, other=0.0)
        x = tl.load(x_ptr + cols, mask=mask, other=0.0)
        acc += w.to(tl.float32) * x.to(tl.float32)
    tl.store(y_ptr + row, tl.sum(acc, axis=0))


def solve(w: torch.Tensor, x: torch.Tensor, y: torch.Tensor, m: int, k: int):
    gemv_row[(m,)](w, x, y, m, k, BLOCK_K=1024)
