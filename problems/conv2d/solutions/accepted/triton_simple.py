"""2-D convolution, the straightforward way: one program per BH x BW tile of outputs and a
loop over the r x r taps. For tap (a, b) the program loads the tile of inputs shifted by
(a - r//2, b - r//2), with a mask that reads zero outside the image (the zero padding), and
adds it times f[a, b] into a float32 accumulator. The r^2 shifted tiles overlap, so the
loads mostly hit the L1 cache, but it is still one load per multiply-add."""

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
        src_r = rows + (a - half)
        row_ok = (src_r >= 0) & (src_r < h)
        for b in range(0, r):
            src_c = cols + (b - half)
            ok = row_ok[:, None] & ((src_c >= 0) & (src_c < w))[None, :]
            xv = tl.load(x_ptr + src_r[:, None] * w + src_c[None, :], mask=ok, other=0.0)
            acc += xv * tl.load(f_ptr + a * r + b)
    out = (rows[:, None] < h) & (cols[None, :] < w)
    tl.store(y_ptr + rows[:, None] * w + cols[None, :], acc, mask=out)


def solve(x: torch.Tensor, f: torch.Tensor, y: torch.Tensor, h: int, w: int, r: int):
    BH, BW = 16, 64
    grid = (triton.cdiv(w, BW), triton.cdiv(h, BH))
    conv2d_kernel[grid](x, f, y, h, w, r, BH=BH, BW=BW)
