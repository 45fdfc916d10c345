# expect: wrong_answer
# Bug: an off-by-one in the clamp, `tl.minimum(..., w)` instead of w - 1 (and h for h - 1): a
# tap past the right edge reads one pixel past the row (the next row's first, or past the
# image on the last row) instead of the edge pixel itself.
import torch
import triton
import triton.language as tl


@triton.jit
def blur_pass(src_ptr, g_ptr, dst_ptr, h, w, r, ROW_STEP: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    # ROW_STEP: the taps step along rows (the vertical pass) or along columns (horizontal).
    rows = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    cols = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    inside = (rows < h) & (cols < w)
    radius = r // 2
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for b in range(0, r):
        if ROW_STEP:
            i = tl.minimum(tl.maximum(rows + b - radius, 0), h)  # BUG: h - 1
            v = tl.load(src_ptr + i * w + cols, mask=inside, other=0.0)
        else:
            j = tl.minimum(tl.maximum(cols + b - radius, 0), w)  # BUG: w - 1
            v = tl.load(src_ptr + rows * w + j, mask=inside, other=0.0)
        acc += tl.load(g_ptr + b) * v
    tl.store(dst_ptr + rows * w + cols, acc, mask=inside)


def solve(x: torch.Tensor, g: torch.Tensor, y: torch.Tensor, h: int, w: int, r: int):
    BM, BN = 16, 32
    grid = (triton.cdiv(h, BM), triton.cdiv(w, BN))
    t = torch.empty_like(y)
    blur_pass[grid](x, g, t, h, w, r, ROW_STEP=False, BM=BM, BN=BN)
    blur_pass[grid](t, g, y, h, w, r, ROW_STEP=True, BM=BM, BN=BN)
