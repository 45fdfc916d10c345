"""RoPE on the framework track, in place: each half widened to float32, rotated with the
position's cos and sin (broadcast over batch and heads), and written back over q and k."""

import torch


def solve(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, b: int, s: int, h: int, d: int):
    half = d // 2
    c, sn = cos[None, :, None, :], sin[None, :, None, :]
    for x in (q, k):
        x1, x2 = x[..., :half].float(), x[..., half:].float()
        x[..., :half] = x1 * c - x2 * sn
        x[..., half:] = x2 * c + x1 * sn
