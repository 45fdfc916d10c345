"""fp8 per-token quantization on the framework track: each row's amax in float32 (kept as a
column so that it broadcasts), the scale with the 1e-12 floor, then an IEEE float32 division
and torch's cast to float8_e4m3fn, which rounds to nearest, ties to even."""

import torch


def solve(x: torch.Tensor, q: torch.Tensor, scales: torch.Tensor, tokens: int, hidden: int):
    amax = x.abs().amax(dim=1, keepdim=True).to(torch.float32)
    s = amax.clamp_min(1e-12) / 448.0
    q.copy_((x.to(torch.float32) / s).to(torch.float8_e4m3fn))
    scales.copy_(s.squeeze(1))
