# expect: wrong_answer
# Bug: multiplies in bfloat16, as the inputs come, and widens the result into y. torch.mv on
# bfloat16 returns bfloat16: each y[i] is rounded to 8 bits of mantissa, an error up to 2^-9
# ≈ 2e-3 of |y[i]|, 20 times the tolerance.
import torch


def solve(w: torch.Tensor, x: torch.Tensor, y: torch.Tensor, m: int, k: int):
    y.copy_(torch.mv(w, x))
