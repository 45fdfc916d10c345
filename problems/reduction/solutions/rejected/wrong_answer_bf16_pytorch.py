# expect: wrong_answer
# Bug: sums a bfloat16 copy of x. Every input loses all but 8 bits of mantissa (errors up to
# 2^-9 relative each), and the sum of millions of them drifts far past the tolerance.
import torch


def solve(x: torch.Tensor, out: torch.Tensor, n: int):
    out.copy_(x.bfloat16().sum(dim=0, keepdim=True))
