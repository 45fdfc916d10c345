"""Attention on the framework track: torch's scaled_dot_product_attention (FlashAttention
kernels for fp16 on an H100), copied into o."""

import torch
import torch.nn.functional as F


def solve(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, o: torch.Tensor, b: int, h: int, s: int, d: int):
    o.copy_(F.scaled_dot_product_attention(q, k, v))
