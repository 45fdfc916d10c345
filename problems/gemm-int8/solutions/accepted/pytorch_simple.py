"""int8 GEMM on the framework track: a and b converted to float32 (exact, and so are their
products) for one float32 matmul, scaled by sa per row and sb per column in float32, rounded
to bf16 into c. The sums are exact below 2^24; above, float32 rounds them by at most 2^-24
relative, far below c's bf16 rounding."""

import torch


def solve(a: torch.Tensor, b: torch.Tensor, sa: torch.Tensor, sb: torch.Tensor, c: torch.Tensor, m: int, n: int, k: int):
    acc = a.float() @ b.float().T
    c.copy_(acc * sa[:, None] * sb[None, :])
