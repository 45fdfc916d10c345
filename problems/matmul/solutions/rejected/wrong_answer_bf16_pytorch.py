# expect: wrong_answer
# Bug: multiplies bfloat16 copies of a and b "for the tensor cores". bfloat16 keeps 8 bits of
# mantissa: the product's relative L2 error is ~2e-3, above the 1.2e-3 that TF32 stays under.
import torch


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, m: int, n: int, k: int):
    c.copy_(torch.matmul(a.bfloat16(), b.bfloat16()))
