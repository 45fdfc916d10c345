"""Vector addition on the framework track: torch's own elementwise kernel, writing into c."""

import torch


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int):
    torch.add(a, b, out=c)
