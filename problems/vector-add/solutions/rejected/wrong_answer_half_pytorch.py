# expect: wrong_answer
# Bug: adds in float16 "because it is faster", then widens the sum back to float32. float16
# keeps 11 bits of mantissa: the result is off by up to 2^-11 ≈ 5e-4 relative, far above the
# float32 tolerance (1e-6).
import torch


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int):
    c.copy_(a.half() + b.half())
