# expect: wrong_answer
# expect-message: values out of tolerance
# Bug: the wrong pairing. The kernel rotates neighbouring elements (2i, 2i+1), as GPT-J and
# the original RoPE paper lay the pairs out, instead of the split halves (i, i + d/2) of
# GPT-NeoX and Llama that this problem uses. Both are rotations and both keep each head's
# norm, so the outputs look plausible; they are not the model's. Position 0 (angle 0) comes
# out right, which hides the bug on one-token tests. The fix: pair element i with i + d/2.
import torch
import triton
import triton.language as tl


@triton.jit
def rope_interleaved(x_ptr, cos_ptr, sin_ptr, s, h, half, HALF: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    pos = (row // h) % s
    i = tl.arange(0, HALF)
    mask = i < half
    base = x_ptr + row * 2 * half
    x1 = tl.load(base + 2 * i, mask=mask, other=0.0).to(tl.float32)  # BUG: pairs (2i, 2i+1)
    x2 = tl.load(base + 2 * i + 1, mask=mask, other=0.0).to(tl.float32)
    c = tl.load(cos_ptr + pos * half + i, mask=mask, other=0.0)
    sn = tl.load(sin_ptr + pos * half + i, mask=mask, other=0.0)
    tl.store(base + 2 * i, (x1 * c - x2 * sn).to(tl.bfloat16), mask=mask)
    tl.store(base + 2 * i + 1, (x2 * c + x1 * sn).to(tl.bfloat16), mask=mask)


def solve(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, b: int, s: int, h: int, d: int):
    half = d // 2
    for x in (q, k):
        rope_interleaved[(b * s * h,)](x, cos, sin, s, h, half, HALF=triton.next_power_of_2(half))
