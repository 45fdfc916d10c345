# expect: wrong_answer
# Bug: the border. Instead of reading zero outside the image (zero padding), it clamps the
# source row and column into the image, so the edge pixels are repeated ("replicate"
# padding, what some image libraries do). Inner outputs are right; every output within r//2
# of an edge is wrong, and for r = 1 (no border at all) everything is right.
import torch
import triton
import triton.language as tl


@triton.jit
def conv2d_kernel(x_ptr, f_ptr, y_ptr, h, w, r, BH: tl.constexpr, BW: tl.constexpr):
    rows = tl.program_id(1) * BH + tl.arange(0, BH)
    cols = tl.program_id(0) * BW + tl.arange(0, BW)
    half = r // 2
    acc = tl.zeros([BH, BW], dtype=tl.float32)
    for a in range(0, r):
        src_r = tl.minimum(tl.maximum(rows + (a - half), 0), h - 1)  # BUG: clamps
        for b in range(0, r):
            src_c = tl.minimum(tl.maximum(cols + (b - half), 0), w - 1)
            xv = tl.load(x_ptr + src_r[:, None] * w + src_c[None, :])
            acc += xv * tl.load(f_ptr + a * r + b)
    out = (rows[:, None] < h) & (cols[None, :] < w)
    tl.store(y_ptr + rows[:, None] * w + cols[None, :], acc, mask=out)


def solve(x: torch.Tensor, f: torch.Tensor, y: torch.Tensor, h: int, w: int, r: int):
    grid = (triton.cdiv(w, 64), triton.cdiv(h, 16))
    conv2d_kernel[grid](x, f, y, h, w, r, BH=16, BW=64)
