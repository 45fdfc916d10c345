"""Sum reduction: inputs, the float64 reference, the error scale and a torch baseline.

Kinds of input (every kind has a sum of the same order as the sum of magnitudes, so a zero
or constant output never passes):
- ``random``: x ~ N(1, 1).
- ``positive``: x ~ U[0, 1).
- ``mixed``: x ~ 3·N(0, 1) - 1: signs mixed, the sum cancels down to ~0.4 of sum(|x|).
"""

from __future__ import annotations

import torch


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """Input ``x`` of length ``n``; every random number comes from ``gen``."""
    n = params["n"]
    if kind == "random":
        x = torch.randn(n, generator=gen, device=device, dtype=torch.float32) + 1.0
    elif kind == "positive":
        x = torch.rand(n, generator=gen, device=device, dtype=torch.float32)
    elif kind == "mixed":
        x = torch.randn(n, generator=gen, device=device, dtype=torch.float32) * 3.0 - 1.0
    else:
        raise ValueError(f"unknown kind {kind!r}")
    return {"x": x}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """out[0] = sum(x), accumulated in float64."""
    return {"out": inputs["x"].to(torch.float64).sum().reshape(1)}


def error_scale(
    inputs: dict[str, torch.Tensor], params: dict[str, int], expected: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor | float]:
    """rtol is relative to sum(|x|): the quantity float32 rounding errors of a sum scale with."""
    return {"out": inputs["x"].to(torch.float64).abs().sum().reshape(1)}


def baseline(x: torch.Tensor, out: torch.Tensor, n: int) -> None:
    """PyTorch's own reduction, writing straight into ``out``."""
    torch.sum(x, dim=0, keepdim=True, out=out)
