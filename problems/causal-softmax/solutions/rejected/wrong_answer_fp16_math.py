# expect: wrong_answer
# Bug: the scores are scaled and shifted in float16, the input's own type (the sum and the
# division are float32). scale·x ≈ ±10 rounds to float16's spacing there, 2^-7, and so does
# scale·x - max: each exponent is off by up to ~4e-3, so each output by ~4e-3 relative, four
# times the tolerance. Compute in float32 and round once, at the store.
import torch
import triton
import triton.language as tl


@triton.jit
def causal_softmax_kernel(x_ptr, scale_ptr, y_ptr, s, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    i = row % s
    cols = tl.arange(0, BLOCK)
    in_row = cols < s
    x = tl.load(x_ptr + row * s + cols, mask=in_row, other=0.0)  # float16
    z = x * tl.load(scale_ptr).to(tl.float16)
    z = tl.where(cols <= i, z, float("-inf")).to(tl.float16)
    z = (z - tl.max(z, axis=0)).to(tl.float16)
    p = tl.exp(z.to(tl.float32))
    tl.store(y_ptr + row * s + cols, (p / tl.sum(p, axis=0)).to(tl.float16), mask=in_row)


def solve(x: torch.Tensor, scale: torch.Tensor, y: torch.Tensor, b: int, h: int, s: int):
    causal_softmax_kernel[(b * h * s,)](x, scale, y, s, BLOCK=triton.next_power_of_2(s))
