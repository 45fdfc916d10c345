# expect: wrong_answer
# Bug: the first step goes from u into out, and every later one updates out in place "to save
# memory". A step
# must read only the previous step's values, but programs run in any order: a tile may read
# neighbours that the program next to it has already overwritten with the new step (here the
# tiles above and to the left, which run first), so the result depends on the schedule. Two
# grids used in turn (ping-pong) fix it.
import torch
import triton
import triton.language as tl


@triton.jit
def heat_step(src_ptr, dst_ptr, h, w, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    cols = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    inside = (rows < h) & (cols < w)
    interior = (rows > 0) & (rows < h - 1) & (cols > 0) & (cols < w - 1)
    p = src_ptr + rows * w + cols
    c = tl.load(p, mask=inside)
    up = tl.load(p - w, mask=interior)
    down = tl.load(p + w, mask=interior)
    left = tl.load(p - 1, mask=interior)
    right = tl.load(p + 1, mask=interior)
    new = c + 0.2 * (up + down + left + right - 4.0 * c)  # ALPHA = 0.2
    tl.store(dst_ptr + rows * w + cols, tl.where(interior, new, c), mask=inside)


def solve(u: torch.Tensor, out: torch.Tensor, h: int, w: int, steps: int):
    BM, BN = 16, 32
    grid = (triton.cdiv(h, BM), triton.cdiv(w, BN))
    heat_step[grid](u, out, h, w, BM=BM, BN=BN)
    for t in range(1, steps):
        heat_step[grid](out, out, h, w, BM=BM, BN=BN)  # BUG: reads the grid it writes
