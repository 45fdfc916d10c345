"""Separable blur, the straightforward way: two kernels through a scratch image.

The horizontal pass writes t[i, j] = sum_b g[b]·x[i, clamp(j + b - R)] for a BM x BN tile of
pixels per program; the vertical pass then reads t and writes y[i, j] = sum_a g[a]·t[clamp(i +
a - R), j]. Clamping the index (not masking the load) is the clamp-to-edge border: a tap that
leaves the image reads the nearest edge pixel. The second launch starts after the first has
finished, so the vertical pass sees the whole of t. Each pass reads and writes the image once:
16 bytes per pixel in all.
"""

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
    # Lanes past the image read its last row or column (never stored): every load is inside.
    rows_in = tl.minimum(rows, h - 1)
    cols_in = tl.minimum(cols, w - 1)
    for b in range(0, r):
        if ROW_STEP:
            i = tl.minimum(tl.maximum(rows + b - radius, 0), h - 1)
            v = tl.load(src_ptr + i * w + cols_in)
        else:
            j = tl.minimum(tl.maximum(cols + b - radius, 0), w - 1)
            v = tl.load(src_ptr + rows_in * w + j)
        acc += tl.load(g_ptr + b) * v
    tl.store(dst_ptr + rows * w + cols, acc, mask=inside)


def solve(x: torch.Tensor, g: torch.Tensor, y: torch.Tensor, h: int, w: int, r: int):
    BM, BN = 16, 32
    grid = (triton.cdiv(h, BM), triton.cdiv(w, BN))
    t = torch.empty_like(y)
    blur_pass[grid](x, g, t, h, w, r, ROW_STEP=False, BM=BM, BN=BN)
    blur_pass[grid](t, g, y, h, w, r, ROW_STEP=True, BM=BM, BN=BN)
