"""LayerNorm on the framework track: F.layer_norm (float32 statistics, one fused kernel on a
GPU), copied into y."""

import torch
import torch.nn.functional as F


def solve(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, y: torch.Tensor, m: int, n: int):
    y.copy_(F.layer_norm(x, (n,), gamma, beta, 1e-5))
