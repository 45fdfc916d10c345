# expect: wrong_answer
# expect-message: NaN or Inf
# Bug: a precision mistake, of range. The kernel converts the bf16 inputs and the tables to
# float16 to rotate in half precision ("16 bits in, 16 bits out"). float16 has more
# significant bits than bfloat16 (so the "random" cases pass) but its largest finite value is
# 65504, where bfloat16 reaches 3.4e38: on the "large" cases some inputs are already past it,
# and convert to inf. bf16 and fp16 are not interchangeable. The fix: compute in float32.
import torch
import triton
import triton.language as tl


@triton.jit
def rope_fp16(x_ptr, cos_ptr, sin_ptr, s, h, half, HALF: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    pos = (row // h) % s
    i = tl.arange(0, HALF)
    mask = i < half
    base = x_ptr + row * 2 * half
    x1 = tl.load(base + i, mask=mask, other=0.0).to(tl.float16)  # BUG: inf past 65504
    x2 = tl.load(base + half + i, mask=mask, other=0.0).to(tl.float16)
    c = tl.load(cos_ptr + pos * half + i, mask=mask, other=0.0).to(tl.float16)
    sn = tl.load(sin_ptr + pos * half + i, mask=mask, other=0.0).to(tl.float16)
    tl.store(base + i, (x1 * c - x2 * sn).to(tl.bfloat16), mask=mask)
    tl.store(base + half + i, (x2 * c + x1 * sn).to(tl.bfloat16), mask=mask)


def solve(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, b: int, s: int, h: int, d: int):
    half = d // 2
    for x in (q, k):
        rope_fp16[(b * s * h,)](x, cos, sin, s, h, half, HALF=triton.next_power_of_2(half))
