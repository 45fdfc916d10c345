# expect: wrong_answer
# expect-message: out of tolerance
# Bug: an off-by-one in the channel offsets. The bytes of pixel p are at 3p, 3p + 1 and
# 3p + 2; counting channels from 1 gives 3p + 1, 3p + 2 and 3p + 3, so "red" is really
# green, "green" is blue, and "blue" is the next pixel's red (for the last pixel, a byte past
# the end of rgb). The fix: offsets 0, 1, 2.
import torch
import triton
import triton.language as tl


@triton.jit
def gray_kernel(rgb_ptr, y_ptr, h, w, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < w
    pix = row * w + cols
    r = tl.load(rgb_ptr + 3 * pix + 1, mask=mask).to(tl.float32)  # BUG: red is at 3 * pix
    g = tl.load(rgb_ptr + 3 * pix + 2, mask=mask).to(tl.float32)
    b = tl.load(rgb_ptr + 3 * pix + 3, mask=mask).to(tl.float32)
    tl.store(y_ptr + pix, (0.299 * r + 0.587 * g + 0.114 * b) / 255.0, mask=mask)


def solve(rgb: torch.Tensor, y: torch.Tensor, h: int, w: int):
    BLOCK = 1024
    gray_kernel[(h, triton.cdiv(w, BLOCK))](rgb, y, h, w, BLOCK=BLOCK)
