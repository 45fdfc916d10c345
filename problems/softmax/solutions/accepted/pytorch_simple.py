"""Row softmax on the framework track: torch.softmax (max-subtracted, one fused kernel on a
GPU), copied into y."""

import torch


def solve(x: torch.Tensor, y: torch.Tensor, rows: int, cols: int):
    y.copy_(torch.softmax(x, dim=1))
