"""Dot product on the framework track: torch.dot (cuBLAS sdot on a GPU), writing straight into
out[0] (a 0-dimensional view of out)."""

import torch


def solve(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor, n: int):
    torch.dot(a, b, out=out[0])
