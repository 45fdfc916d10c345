# expect: wrong_answer
# expect-message: wrote past the end
# Bug: no mask on the stores. The block of pairs is the next power of two of d/2; when d/2 is
# not a power of two the extra lanes (loaded as 0) store zeros after each half: over the
# start of the second half, into the next head and, from the last head, past the end of q.
# The loads are masked, so the first heads look right until a later program reads zeros
# that should have been its input. The fix: mask=i < half on both stores.
import torch
import triton
import triton.language as tl


@triton.jit
def rope_head(x_ptr, cos_ptr, sin_ptr, s, h, half, HALF: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    pos = (row // h) % s
    i = tl.arange(0, HALF)
    mask = i < half
    base = x_ptr + row * 2 * half
    x1 = tl.load(base + i, mask=mask, other=0.0).to(tl.float32)
    x2 = tl.load(base + half + i, mask=mask, other=0.0).to(tl.float32)
    c = tl.load(cos_ptr + pos * half + i, mask=mask, other=0.0)
    sn = tl.load(sin_ptr + pos * half + i, mask=mask, other=0.0)
    tl.store(base + half + i, (x2 * c + x1 * sn).to(tl.bfloat16))  # BUG: no mask
    tl.store(base + i, (x1 * c - x2 * sn).to(tl.bfloat16))  # BUG: no mask


def solve(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, b: int, s: int, h: int, d: int):
    half = d // 2
    for x in (q, k):
        rope_head[(b * s * h,)](x, cos, sin, s, h, half, HALF=triton.next_power_of_2(half))
