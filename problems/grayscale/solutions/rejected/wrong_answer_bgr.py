# expect: wrong_answer
# expect-message: out of tolerance
# Bug: reads the channels in BGR order, as OpenCV stores images, so the weights 0.299 and
# 0.114 go to the wrong colours: a pure red pixel comes out 0.114 instead of 0.299. The
# input here is RGB (red first). The fix: red is byte 0 of a pixel.
import torch
import triton
import triton.language as tl


@triton.jit
def gray_kernel(rgb_ptr, y_ptr, h, w, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < w
    pix = row * w + cols
    b = tl.load(rgb_ptr + 3 * pix, mask=mask).to(tl.float32)  # BUG: byte 0 is red
    g = tl.load(rgb_ptr + 3 * pix + 1, mask=mask).to(tl.float32)
    r = tl.load(rgb_ptr + 3 * pix + 2, mask=mask).to(tl.float32)
    tl.store(y_ptr + pix, (0.299 * r + 0.587 * g + 0.114 * b) / 255.0, mask=mask)


def solve(rgb: torch.Tensor, y: torch.Tensor, h: int, w: int):
    BLOCK = 1024
    gray_kernel[(h, triton.cdiv(w, BLOCK))](rgb, y, h, w, BLOCK=BLOCK)
