# expect: wrong_answer
# Bug: the partial sums are kept in float16 ("x is only float32 for storage"). Each addition
# rounds to 11 significant bits, 2^-11 of the running sum, far past the 1e-4 of sum |x| asked;
# and float16's largest value is 65504, so the sums of the "large" segments overflow to inf.
import torch
import triton
import triton.language as tl


@triton.jit
def segment_sum_kernel(x_ptr, offsets_ptr, out_ptr, BLOCK: tl.constexpr):
    s = tl.program_id(0)
    start = tl.load(offsets_ptr + s)
    end = tl.load(offsets_ptr + s + 1)
    acc = tl.zeros([BLOCK], dtype=tl.float16)  # BUG: tl.float32
    for i in range(start, end, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        acc = (acc + tl.load(x_ptr + offs, mask=offs < end, other=0.0)).to(tl.float16)
    tl.store(out_ptr + s, tl.sum(acc, axis=0).to(tl.float32))


def solve(x: torch.Tensor, offsets: torch.Tensor, out: torch.Tensor, n: int, segments: int):
    segment_sum_kernel[(segments,)](x, offsets, out, BLOCK=256)
