"""Matrix transpose on the framework track: copy the transposed view of x into y (torch's
strided copy kernel does the data movement)."""

import torch


def solve(x: torch.Tensor, y: torch.Tensor, m: int, n: int):
    y.copy_(x.t())
