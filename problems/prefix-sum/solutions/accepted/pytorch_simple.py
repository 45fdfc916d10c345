"""Inclusive prefix sum on the framework track: torch.cumsum, accumulated and written in int32
straight into y (without dtype=, an int32 cumsum returns int64)."""

import torch


def solve(x: torch.Tensor, y: torch.Tensor, n: int):
    torch.cumsum(x, dim=0, dtype=torch.int32, out=y)
