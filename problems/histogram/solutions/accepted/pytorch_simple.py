"""Byte histogram on the framework track: torch.bincount with minlength=256 (every byte value
gets a bin, seen or not), narrowed from int64 into bins."""

import torch


def solve(data: torch.Tensor, bins: torch.Tensor, n: int):
    bins.copy_(torch.bincount(data, minlength=256))
