# expect: wrong_answer
# Bug: the border padded with zeros, as in a "same" convolution: a tap that leaves the image is
# masked off (adds 0) instead of reading the nearest edge pixel. Every pixel within R of an
# edge loses part of its weight; on the ramp image the edges come out darker by up to half.
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
            i = rows + b - radius
            v = tl.load(src_ptr + i * w + cols, mask=inside & (i >= 0) & (i < h), other=0.0)  # BUG: clamp i
        else:
            j = cols + b - radius
            v = tl.load(src_ptr + rows * w + j, mask=inside & (j >= 0) & (j < w), other=0.0)  # BUG: clamp j
        acc += tl.load(g_ptr + b) * v
    tl.store(dst_ptr + rows * w + cols, acc, mask=inside)


def solve(x: torch.Tensor, g: torch.Tensor, y: torch.Tensor, h: int, w: int, r: int):
    BM, BN = 16, 32
    grid = (triton.cdiv(h, BM), triton.cdiv(w, BN))
    t = torch.empty_like(y)
    blur_pass[grid](x, g, t, h, w, r, ROW_STEP=False, BM=BM, BN=BN)
    blur_pass[grid](t, g, y, h, w, r, ROW_STEP=True, BM=BM, BN=BN)
