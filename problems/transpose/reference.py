"""Matrix transpose: inputs, the reference and a torch baseline.

A transpose computes nothing, so the reference is exact in float32 and the checker compares
by value. Kinds of input:
- ``random``: x ~ N(0, 1).
- ``iota``: x[i, j] = i·n + j (exact in float32 below 2^24 elements), so a wrong answer's
  message shows which element of x arrived in the wrong place.
"""

from __future__ import annotations

import torch

_IOTA_LIMIT = 1 << 24  # float32 holds every integer up to 2^24 exactly


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """Input ``x`` of shape (m, n); every random number comes from ``gen``."""
    m, n = params["m"], params["n"]
    if kind == "random":
        x = torch.randn(m, n, generator=gen, device=device, dtype=torch.float32)
    elif kind == "iota":
        if m * n > _IOTA_LIMIT:
            raise ValueError(f"iota needs m·n <= 2^24 to be exact in float32, got {m}·{n}")
        x = torch.arange(m * n, device=device, dtype=torch.float32).reshape(m, n)
    else:
        raise ValueError(f"unknown kind {kind!r} (expected random or iota)")
    return {"x": x}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """y[j, i] = x[i, j]."""
    return {"y": inputs["x"].t().contiguous()}


def baseline(x: torch.Tensor, y: torch.Tensor, m: int, n: int) -> None:
    """PyTorch's strided copy of the transposed view, writing straight into ``y``."""
    y.copy_(x.t())
