# expect: wrong_answer
# Bug: the horizontal pass's scratch image is float16 ("half the traffic between the passes"):
# every intermediate is rounded to 11 significant bits, 2.4e-4 of its size, 25 times the
# 1e-5 asked.
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
            i = tl.minimum(tl.maximum(rows + b - radius, 0), h - 1)
            v = tl.load(src_ptr + i * w + cols, mask=inside, other=0.0)
        else:
            j = tl.minimum(tl.maximum(cols + b - radius, 0), w - 1)
            v = tl.load(src_ptr + rows * w + j, mask=inside, other=0.0)
        acc += tl.load(g_ptr + b) * v
    tl.store(dst_ptr + rows * w + cols, acc, mask=inside)


def solve(x: torch.Tensor, g: torch.Tensor, y: torch.Tensor, h: int, w: int, r: int):
    BM, BN = 16, 32
    grid = (triton.cdiv(h, BM), triton.cdiv(w, BN))
    t = torch.empty_like(y, dtype=torch.float16)  # BUG: keep float32
    blur_pass[grid](x, g, t, h, w, r, ROW_STEP=False, BM=BM, BN=BN)
    blur_pass[grid](t, g, y, h, w, r, ROW_STEP=True, BM=BM, BN=BN)
