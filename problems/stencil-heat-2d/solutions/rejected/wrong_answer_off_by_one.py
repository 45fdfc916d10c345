# expect: wrong_answer
# Bug: an off-by-one in the interior test, `cols < w` instead of `cols < w - 1`: the last
# column is updated as if it were interior, its right neighbour read from the first point of
# the next row. The boundary must keep its value on all four sides.
import torch
import triton
import triton.language as tl


@triton.jit
def heat_step(src_ptr, dst_ptr, h, w, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    cols = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    inside = (rows < h) & (cols < w)
    interior = (rows > 0) & (rows < h - 1) & (cols > 0) & (cols < w)  # BUG: cols < w - 1
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
    scratch = torch.empty_like(out)
    # Step t writes out when steps - t is odd; the other grid otherwise.
    src = u
    for t in range(steps):
        dst = out if (steps - t) % 2 == 1 else scratch
        heat_step[grid](src, dst, h, w, BM=BM, BN=BN)
        src = dst
