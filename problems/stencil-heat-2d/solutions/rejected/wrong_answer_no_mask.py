# expect: wrong_answer
# expect-message: out: wrote past the end
# Bug: the store has no mask. The tile is rounded up to whole BM x BN blocks, so the last
# column of tiles stores past the end of each row (into the next row) and the last row of
# tiles past the end of the grid. The learner padded the scratch grid to whole tiles so that
# its stores need no mask, and forgot that out has no such room. The fix:
# mask=(rows < h) & (cols < w).
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
    tl.store(dst_ptr + rows * w + cols, tl.where(interior, new, c))  # BUG: no mask=inside


def solve(u: torch.Tensor, out: torch.Tensor, h: int, w: int, steps: int):
    BM, BN = 16, 32
    grid = (triton.cdiv(h, BM), triton.cdiv(w, BN))
    # room for whole tiles past the last row and column: stores into it need no mask
    scratch = torch.empty(triton.cdiv(h, BM) * BM * w + BN, dtype=out.dtype, device=out.device)
    # Step t writes out when steps - t is odd; the other grid otherwise.
    src = u
    for t in range(steps):
        dst = out if (steps - t) % 2 == 1 else scratch
        heat_step[grid](src, dst, h, w, BM=BM, BN=BN)
        src = dst
