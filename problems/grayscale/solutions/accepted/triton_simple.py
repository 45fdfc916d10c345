"""RGB to grayscale, the straightforward way: a 2-D grid, one program per row of the image
and block of 1024 columns. Pixel (row, col) starts at byte 3·(row·w + col) of rgb: its red,
green and blue bytes are loaded separately, converted to float32 and weighted."""

import torch
import triton
import triton.language as tl


@triton.jit
def gray_kernel(rgb_ptr, y_ptr, h, w, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < w  # the last block of a row may be partial
    pix = row * w + cols
    r = tl.load(rgb_ptr + 3 * pix, mask=mask).to(tl.float32)
    g = tl.load(rgb_ptr + 3 * pix + 1, mask=mask).to(tl.float32)
    b = tl.load(rgb_ptr + 3 * pix + 2, mask=mask).to(tl.float32)
    tl.store(y_ptr + pix, (0.299 * r + 0.587 * g + 0.114 * b) / 255.0, mask=mask)


def solve(rgb: torch.Tensor, y: torch.Tensor, h: int, w: int):
    BLOCK = 1024
    gray_kernel[(h, triton.cdiv(w, BLOCK))](rgb, y, h, w, BLOCK=BLOCK)
