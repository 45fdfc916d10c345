"""LayerNorm on the framework track: F.layer_norm in float32, copied into y (one rounding to
bf16, at the copy). On bf16 tensors F.layer_norm's result on the CPU is rounded more than once
and can miss the tolerance for a kernel that rounds once (problem.toml)."""

import torch
import torch.nn.functional as F


def solve(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, y: torch.Tensor, m: int, n: int):
    y.copy_(F.layer_norm(x.float(), (n,), gamma.float(), beta.float(), 1e-5))
