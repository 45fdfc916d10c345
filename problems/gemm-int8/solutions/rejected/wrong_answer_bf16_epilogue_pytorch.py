# expect: wrong_answer
# Bug: a precision mistake. The integer sums are right (float32, exact), but the scaling is
# done "in the output's type": the sums, sa and sb are each rounded to bf16 and multiplied in
# bf16, four roundings of up to 2^-9 instead of one. The relative L2 error is ~3.3e-3 against
# 1.7e-3 for a float32 epilogue, over the 2.5e-3 allowed. The fix: scale in float32, round once.
import torch


def solve(a: torch.Tensor, b: torch.Tensor, sa: torch.Tensor, sb: torch.Tensor, c: torch.Tensor, m: int, n: int, k: int):
    acc = (a.float() @ b.float().T).to(c.dtype)
    c.copy_(acc * sa.to(c.dtype)[:, None] * sb.to(c.dtype)[None, :])
