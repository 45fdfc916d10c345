"""GELU on the framework track: torch's fused GELU with the tanh approximation, copied into y
(torch.nn.functional.gelu has no out= argument)."""

import torch
import torch.nn.functional as F


def solve(x: torch.Tensor, y: torch.Tensor, n: int):
    y.copy_(F.gelu(x, approximate="tanh"))
