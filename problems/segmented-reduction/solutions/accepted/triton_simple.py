"""Segmented sum, the straightforward way: one program per segment. The program reads its
bounds offsets[s] and offsets[s + 1] (one past the end) and walks the segment in chunks of
BLOCK, adding into a vector of partial sums that it reduces at the end. An empty segment walks
nothing and stores 0. Correct for any segments, but a program with one long segment runs long
while the others are done: this is what a load-balanced kernel fixes."""

import torch
import triton
import triton.language as tl


@triton.jit
def segment_sum_kernel(x_ptr, offsets_ptr, out_ptr, BLOCK: tl.constexpr):
    s = tl.program_id(0)
    start = tl.load(offsets_ptr + s)
    end = tl.load(offsets_ptr + s + 1)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(start, end, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < end, other=0.0)
    tl.store(out_ptr + s, tl.sum(acc, axis=0))


def solve(x: torch.Tensor, offsets: torch.Tensor, out: torch.Tensor, n: int, segments: int):
    segment_sum_kernel[(segments,)](x, offsets, out, BLOCK=1024)
