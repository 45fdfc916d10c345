"""Matrix product on the framework track: torch.matmul (cuBLAS on a GPU) straight into c."""

import torch


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, m: int, n: int, k: int):
    torch.matmul(a, b, out=c)
