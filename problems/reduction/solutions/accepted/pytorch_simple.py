"""Sum reduction on the framework track: torch.sum over the only dimension, into out."""

import torch


def solve(x: torch.Tensor, out: torch.Tensor, n: int):
    torch.sum(x, dim=0, keepdim=True, out=out)
