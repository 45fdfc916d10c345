"""Row argmax on the framework track: torch.argmax over dim 1 (it returns the first index of
the maximum), narrowed from int64 into idx."""

import torch


def solve(x: torch.Tensor, idx: torch.Tensor, m: int, n: int):
    idx.copy_(torch.argmax(x, dim=1))
