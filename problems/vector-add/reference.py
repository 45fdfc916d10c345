"""Vector addition: inputs, the float64 reference and a torch baseline.

Kinds of input:
- ``random``: a, b ~ N(0, 1).
- ``wide_range``: magnitudes spread log-uniformly over [1e-20, 1e20] with random signs, so
  a result kept in float16 overflows and one kept in bfloat16 loses precision everywhere.
"""

from __future__ import annotations

import torch


def _wide_range(n: int, gen: torch.Generator, device: torch.device) -> torch.Tensor:
    exponent = torch.rand(n, generator=gen, device=device, dtype=torch.float64) * 40.0 - 20.0
    sign = torch.randint(0, 2, (n,), generator=gen, device=device).to(torch.float64) * 2.0 - 1.0
    return (sign * torch.pow(10.0, exponent)).to(torch.float32)


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """Inputs ``a`` and ``b`` of length ``n``; every random number comes from ``gen``."""
    n = params["n"]
    if kind == "random":
        a = torch.randn(n, generator=gen, device=device, dtype=torch.float32)
        b = torch.randn(n, generator=gen, device=device, dtype=torch.float32)
    elif kind == "wide_range":
        a = _wide_range(n, gen, device)
        b = _wide_range(n, gen, device)
    else:
        raise ValueError(f"unknown kind {kind!r}")
    return {"a": a, "b": b}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """c = a + b in float64 (exact for two float32 operands)."""
    return {"c": inputs["a"].to(torch.float64) + inputs["b"].to(torch.float64)}


def baseline(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int) -> None:
    """PyTorch's own elementwise add, writing straight into ``c``."""
    torch.add(a, b, out=c)
