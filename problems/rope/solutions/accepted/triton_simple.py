"""RoPE in place, the straightforward way: one program per head of one token (b·s·h programs),
called once for q and once for k. A program loads the head's two halves and the position's
cos and sin (block HALF >= d/2, masked), rotates in float32 and stores both halves back over
the inputs. Every element is read by the program that writes it, so rotating in place is
safe."""

import torch
import triton
import triton.language as tl


@triton.jit
def rope_head(x_ptr, cos_ptr, sin_ptr, s, h, half, HALF: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)  # (batch * s + position) * h + head
    pos = (row // h) % s
    i = tl.arange(0, HALF)
    mask = i < half
    base = x_ptr + row * 2 * half
    x1 = tl.load(base + i, mask=mask, other=0.0).to(tl.float32)
    x2 = tl.load(base + half + i, mask=mask, other=0.0).to(tl.float32)
    c = tl.load(cos_ptr + pos * half + i, mask=mask, other=0.0)
    sn = tl.load(sin_ptr + pos * half + i, mask=mask, other=0.0)
    tl.store(base + i, (x1 * c - x2 * sn).to(tl.bfloat16), mask=mask)
    tl.store(base + half + i, (x2 * c + x1 * sn).to(tl.bfloat16), mask=mask)


def solve(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, b: int, s: int, h: int, d: int):
    half = d // 2
    HALF = triton.next_power_of_2(half)
    for x in (q, k):
        rope_head[(b * s * h,)](x, cos, sin, s, h, half, HALF=HALF)
