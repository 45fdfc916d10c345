"""Row-wise softmax: inputs, the float64 reference and a torch baseline.

Kinds of input:
- ``random``: x ~ N(0, 1).
- ``large``: row i is s·100 + 10·N(0, 1) with s = +1 on even rows and -1 on odd rows.
  exp(x) overflows float32 on the +100 rows and underflows on the -100 rows, so only a
  softmax that subtracts the row maximum first gets them right.
"""

from __future__ import annotations

import torch


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """Input ``x`` of shape (rows, cols); every random number comes from ``gen``."""
    rows, cols = params["rows"], params["cols"]
    x = torch.randn(rows, cols, generator=gen, device=device, dtype=torch.float32)
    if kind == "random":
        pass
    elif kind == "large":
        sign = 1.0 - 2.0 * (torch.arange(rows, device=device, dtype=torch.float32) % 2)
        sign = sign.reshape(rows, 1)
        x = x * 10.0 + sign * 100.0
    else:
        raise ValueError(f"unknown kind {kind!r}")
    return {"x": x}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """y = softmax(x) along each row, computed in float64."""
    return {"y": torch.softmax(inputs["x"].to(torch.float64), dim=1)}


def baseline(x: torch.Tensor, y: torch.Tensor, rows: int, cols: int) -> None:
    """PyTorch's own softmax kernel, writing straight into ``y``."""
    torch._softmax(x, 1, False, out=y)
