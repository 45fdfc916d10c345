# expect: wrong_answer
# expect-message: was it written?
# Bug: only the kept columns 0..i are stored, on the idea that the rest "is masked anyway". The
# output's upper triangle is then whatever was in y before: the problem asks for zeros there,
# and the judge fills y with NaN before each call to see whether it was written.
import torch
import triton
import triton.language as tl


@triton.jit
def causal_softmax_kernel(x_ptr, scale_ptr, y_ptr, s, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    i = row % s
    cols = tl.arange(0, BLOCK)
    keep = cols <= i
    x = tl.load(x_ptr + row * s + cols, mask=keep, other=float("-inf")).to(tl.float32)
    z = x * tl.load(scale_ptr)
    z = z - tl.max(z, axis=0)
    p = tl.exp(z)
    tl.store(y_ptr + row * s + cols, (p / tl.sum(p, axis=0)).to(tl.float16), mask=keep)


def solve(x: torch.Tensor, scale: torch.Tensor, y: torch.Tensor, b: int, h: int, s: int):
    causal_softmax_kernel[(b * h * s,)](x, scale, y, s, BLOCK=triton.next_power_of_2(s))
