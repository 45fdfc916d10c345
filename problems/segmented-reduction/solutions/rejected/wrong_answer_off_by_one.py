# expect: wrong_answer
# Bug: treats offsets[s + 1] as the index of the segment's last element instead of one past
# it, so the mask is `offs <= end`: every segment also adds the next segment's first element
# (and the last segment reads one element past the end of x).
import torch
import triton
import triton.language as tl


@triton.jit
def segment_sum_kernel(x_ptr, offsets_ptr, out_ptr, BLOCK: tl.constexpr):
    s = tl.program_id(0)
    start = tl.load(offsets_ptr + s)
    end = tl.load(offsets_ptr + s + 1)  # BUG: this is one past the end, not the last element
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(start, end + 1, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs <= end, other=0.0)
    tl.store(out_ptr + s, tl.sum(acc, axis=0))


def solve(x: torch.Tensor, offsets: torch.Tensor, out: torch.Tensor, n: int, segments: int):
    segment_sum_kernel[(segments,)](x, offsets, out, BLOCK=1024)
