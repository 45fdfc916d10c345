"""Rotary position embedding (RoPE) of q and k in place: inputs, the float64 reference, the
error scale and a torch baseline.

Layout: q, k are [b, s, h, d] (batch, position, head, head dimension); cos, sin are
[s, d/2] float32. The pairs are split halves (GPT-NeoX / Llama): element i of a head is
rotated with element i + d/2, by the angle of frequency i at that position:

    q'[.., i]       = q[.., i] · cos[p, i] - q[.., i + d/2] · sin[p, i]
    q'[.., i + d/2] = q[.., i + d/2] · cos[p, i] + q[.., i] · sin[p, i]      (i < d/2)

cos[p, i] = cos(p · base^(-2i/d)) with base 10000, computed in float64 and stored as float32;
the reference widens those float32 values, so it checks the rotation, not the tables.

Kinds of input (q, k rounded to bfloat16):
- ``random``: q, k ~ N(0, 1).
- ``large``: q, k ~ 3·10^4 · N(0, 1): a few percent of the values are past float16's largest
  finite value (65504), which bf16 holds easily; a kernel that computes in float16 returns
  inf there.
"""

from __future__ import annotations

import torch

BASE = 10000.0


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """Inputs ``q``, ``k`` ([b, s, h, d]) and ``cos``, ``sin`` ([s, d/2]), all from ``gen``."""
    b, s, h, d = params["b"], params["s"], params["h"], params["d"]
    if d % 2:
        raise ValueError(f"d must be even, got {d}")
    scale = {"random": 1.0, "large": 3.0e4}.get(kind)
    if scale is None:
        raise ValueError(f"unknown kind {kind!r} (expected random or large)")
    q = torch.randn(b, s, h, d, generator=gen, device=device, dtype=torch.float32) * scale
    k = torch.randn(b, s, h, d, generator=gen, device=device, dtype=torch.float32) * scale
    inv_freq = BASE ** (-torch.arange(0, d, 2, device=device, dtype=torch.float64) / d)
    angle = torch.arange(s, device=device, dtype=torch.float64)[:, None] * inv_freq[None, :]
    return {
        "q": q.to(torch.bfloat16),
        "k": k.to(torch.bfloat16),
        "cos": torch.cos(angle).to(torch.float32),
        "sin": torch.sin(angle).to(torch.float32),
    }


def _halves(inputs: dict[str, torch.Tensor], name: str) -> tuple[torch.Tensor, ...]:
    x = inputs[name].to(torch.float64)
    half = x.shape[-1] // 2
    c = inputs["cos"].to(torch.float64)[None, :, None, :]
    s = inputs["sin"].to(torch.float64)[None, :, None, :]
    return x[..., :half], x[..., half:], c, s


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """q and k rotated, in float64 from the bf16 inputs and the float32 tables."""
    out = {}
    for name in ("q", "k"):
        x1, x2, c, s = _halves(inputs, name)
        out[name] = torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1)
    return out


def error_scale(
    inputs: dict[str, torch.Tensor], params: dict[str, int], expected: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor | float]:
    """rtol is relative to |x_i·cos| + |x_partner·sin|: the two terms each output adds up.

    Where they cancel, the output is small but their rounding is not (problem.toml).
    """
    out: dict[str, torch.Tensor | float] = {}
    for name in ("q", "k"):
        x1, x2, c, s = _halves(inputs, name)
        c, s = c.abs(), s.abs()
        a1, a2 = x1.abs(), x2.abs()
        out[name] = torch.cat([a1 * c + a2 * s, a2 * c + a1 * s], dim=-1)
    return out


def baseline(
    q: torch.Tensor,
    k: torch.Tensor,
    cos: torch.Tensor,
    sin: torch.Tensor,
    b: int,
    s: int,
    h: int,
    d: int,
) -> None:
    """PyTorch eager, in place: widen each half, rotate in float32, write back (PyTorch has no
    fused RoPE operator; this is what a model without a custom kernel runs)."""
    half = d // 2
    c, sn = cos[None, :, None, :], sin[None, :, None, :]
    for x in (q, k):
        x1, x2 = x[..., :half].float(), x[..., half:].float()
        x[..., :half] = x1 * c - x2 * sn
        x[..., half:] = x2 * c + x1 * sn
