# expect: wrong_answer
# Bug: the causal mask is left out: each row is an ordinary softmax over all s columns, so
# query i attends to keys after it. Only the last row of each head (i = s - 1, which keeps
# every column) and s = 1 come out right.
import torch
import triton
import triton.language as tl


@triton.jit
def causal_softmax_kernel(x_ptr, scale_ptr, y_ptr, s, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    in_row = cols < s
    x = tl.load(x_ptr + row * s + cols, mask=in_row, other=float("-inf")).to(tl.float32)
    z = x * tl.load(scale_ptr)
    z = z - tl.max(z, axis=0)
    p = tl.exp(z)
    tl.store(y_ptr + row * s + cols, (p / tl.sum(p, axis=0)).to(tl.float16), mask=in_row)


def solve(x: torch.Tensor, scale: torch.Tensor, y: torch.Tensor, b: int, h: int, s: int):
    causal_softmax_kernel[(b * h * s,)](x, scale, y, s, BLOCK=triton.next_power_of_2(s))
