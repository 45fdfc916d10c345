# expect: wrong_answer
# Bug: the row maximum is not subtracted before exp. Right while the scaled scores stay small,
# as they do in most cases; on the "large" heads exp(106) overflows float32 to inf (inf / inf
# = NaN) and exp(-106) underflows to 0 (0 / 0 = NaN).
import torch
import triton
import triton.language as tl


@triton.jit
def causal_softmax_kernel(x_ptr, scale_ptr, y_ptr, s, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    i = row % s
    cols = tl.arange(0, BLOCK)
    in_row = cols < s
    x = tl.load(x_ptr + row * s + cols, mask=in_row, other=0.0).to(tl.float32)
    p = tl.where(cols <= i, tl.exp(x * tl.load(scale_ptr)), 0.0)
    tl.store(y_ptr + row * s + cols, (p / tl.sum(p, axis=0)).to(tl.float16), mask=in_row)


def solve(x: torch.Tensor, scale: torch.Tensor, y: torch.Tensor, b: int, h: int, s: int):
    causal_softmax_kernel[(b * h * s,)](x, scale, y, s, BLOCK=triton.next_power_of_2(s))
