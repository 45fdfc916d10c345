# expect: wrong_answer
# expect-message: out: wrote past the end
# Bug: the kernel that zeroes out before the atomic adds has no mask: its last program stores
# a whole BLOCK of zeros, past the end of out unless segments is a multiple of BLOCK. (The
# sum itself is right, if slow: one lane per element finds its segment by a binary search of
# offsets and adds its value into out[segment] atomically.) The fix: mask=offs < segments.
import torch
import triton
import triton.language as tl


@triton.jit
def zero_fill(out_ptr, segments, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32))  # BUG: no mask=offs < segments


@triton.jit
def add_elements(x_ptr, offsets_ptr, out_ptr, n, segments, steps, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = idx < n
    a = tl.zeros([BLOCK], dtype=tl.int32)
    b = tl.zeros([BLOCK], dtype=tl.int32) + (segments - 1)
    for _ in range(0, steps):  # the last segment s with offsets[s] <= idx
        mid = (a + b + 1) // 2
        below = tl.load(offsets_ptr + mid) <= idx
        a = tl.where(below, mid, a)
        b = tl.where(below, b, mid - 1)
    x = tl.load(x_ptr + idx, mask=live, other=0.0)
    tl.atomic_add(out_ptr + a, x, mask=live)


def solve(x: torch.Tensor, offsets: torch.Tensor, out: torch.Tensor, n: int, segments: int):
    BLOCK = 256
    zero_fill[(triton.cdiv(segments, BLOCK),)](out, segments, BLOCK=BLOCK)
    add_elements[(triton.cdiv(n, BLOCK),)](x, offsets, out, n, segments, segments.bit_length(), BLOCK=BLOCK)
