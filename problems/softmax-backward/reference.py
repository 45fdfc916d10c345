"""Softmax backward: inputs, the float64 reference, the error scale and a torch baseline.

y is the forward output softmax(x) of a row-major rows x cols matrix, computed in float32
as a forward kernel would have left it; dy is the gradient flowing back into y. Kinds:
- ``random``: x ~ N(0, 1), dy ~ N(0, 1).
- ``peaked``: x ~ 8·N(0, 1): y is nearly one-hot, most entries tiny and some underflowed to
  0, so an error relative to each entry's own size counts.
- ``shifted``: x ~ N(0, 1), dy ~ 1000 + N(0, 1). softmax's Jacobian maps a constant to 0,
  so the exact dx only sees the N(0, 1) part: forgetting the row sum is off by ~1000·y,
  and a float16 row sum loses what is left after the cancellation.
"""

from __future__ import annotations

import torch


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """``y`` = softmax(x) and ``dy``, both (rows, cols) float32; every random number comes
    from ``gen``."""
    rows, cols = params["rows"], params["cols"]
    x = torch.randn(rows, cols, generator=gen, device=device, dtype=torch.float32)
    dy = torch.randn(rows, cols, generator=gen, device=device, dtype=torch.float32)
    if kind == "random":
        pass
    elif kind == "peaked":
        x = x * 8.0
    elif kind == "shifted":
        dy = dy + 1000.0
    else:
        raise ValueError(f"unknown kind {kind!r}")
    return {"y": torch.softmax(x, dim=1), "dy": dy}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """dx = y ⊙ (dy - rowsum(dy ⊙ y)), in float64 from the given float32 y and dy."""
    y = inputs["y"].to(torch.float64)
    dy = inputs["dy"].to(torch.float64)
    s = (dy * y).sum(dim=1, keepdim=True)
    return {"dx": y * (dy - s)}


def error_scale(
    inputs: dict[str, torch.Tensor], params: dict[str, int], expected: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor | float]:
    """rtol is relative to y_ij (|dy_ij| + sum_k |dy_ik| y_ik): the size of the terms whose
    float32 rounding dx_ij inherits, while dx_ij itself may cancel to near 0."""
    y = inputs["y"].to(torch.float64)
    ady = inputs["dy"].to(torch.float64).abs()
    return {"dx": y * (ady + (ady * y).sum(dim=1, keepdim=True))}


def baseline(y: torch.Tensor, dy: torch.Tensor, dx: torch.Tensor, rows: int, cols: int) -> None:
    """PyTorch's own softmax backward kernel (what autograd runs for torch.softmax)."""
    torch._softmax_backward_data(dy, y, 1, torch.float32, grad_input=dx)
