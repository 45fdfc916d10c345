"""Dot product: inputs, the float64 reference, the error scale and a torch baseline.

Kinds of input (every kind has |a·b| of the same order as the sum of |a_i b_i|, so a zero or
constant output never passes):
- ``random``: a, b ~ N(1, 1).
- ``positive``: a, b ~ U[0, 1).
- ``mixed``: a ~ 3·N(0, 1) - 1, b ~ 3·N(0, 1) + 1: products of both signs; the sum cancels
  down to ~0.16 of sum(|a_i b_i|).
"""

from __future__ import annotations

import torch


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """Inputs ``a`` and ``b`` of length ``n``; every random number comes from ``gen``."""
    n = params["n"]

    def normal() -> torch.Tensor:
        return torch.randn(n, generator=gen, device=device, dtype=torch.float32)

    if kind == "random":
        a, b = normal() + 1.0, normal() + 1.0
    elif kind == "positive":
        a = torch.rand(n, generator=gen, device=device, dtype=torch.float32)
        b = torch.rand(n, generator=gen, device=device, dtype=torch.float32)
    elif kind == "mixed":
        a, b = normal() * 3.0 - 1.0, normal() * 3.0 + 1.0
    else:
        raise ValueError(f"unknown kind {kind!r} (expected random, positive or mixed)")
    return {"a": a, "b": b}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """out[0] = sum(a_i · b_i), products and sum in float64 (each product of two float32s is
    exact there)."""
    a, b = inputs["a"].to(torch.float64), inputs["b"].to(torch.float64)
    return {"out": torch.dot(a, b).reshape(1)}


def error_scale(
    inputs: dict[str, torch.Tensor], params: dict[str, int], expected: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor | float]:
    """rtol is relative to sum(|a_i b_i|): what float32 rounding errors of the sum scale with."""
    a, b = inputs["a"].to(torch.float64), inputs["b"].to(torch.float64)
    return {"out": torch.dot(a.abs(), b.abs()).reshape(1)}


def baseline(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor, n: int) -> None:
    """PyTorch's dot (cuBLAS sdot on a GPU), writing straight into ``out``."""
    torch.dot(a, b, out=out.view(()))
