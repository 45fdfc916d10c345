"""Row-wise argmax: inputs, the exact reference (first index wins ties) and a torch baseline.

Kinds of input:
- ``random``: x ~ N(0, 1). Near-ties are common in long rows (the largest two of 32768
  normals are often within 1e-3), so comparing at reduced precision picks the wrong one.
- ``ties``: small integers 0..3 stored as floats, so every row holds its maximum many times
  and only the first-index rule decides; every 5th row is entirely -inf (its answer is 0).
- ``negative``: x ~ -U[1, 2): every value below 0, which catches a running maximum started
  at 0 instead of -inf.
- ``last``: N(0, 1) with each row's maximum moved to the last column, which catches a loop
  or grid that stops one element or one block short.
"""

from __future__ import annotations

import torch


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """Input ``x`` of shape (m, n); every random number comes from ``gen``."""
    m, n = params["m"], params["n"]
    f32 = torch.float32
    if kind in ("random", "last"):
        x = torch.randn(m, n, generator=gen, device=device, dtype=f32)
        if kind == "last":
            top = x.max(dim=1).values
            x[:, n - 1] = top + 1.0  # strictly the largest: no tie with the old maximum
    elif kind == "ties":
        x = torch.randint(0, 4, (m, n), generator=gen, device=device).to(f32)
        x[::5] = float("-inf")
    elif kind == "negative":
        x = -1.0 - torch.rand(m, n, generator=gen, device=device, dtype=f32)
    else:
        raise ValueError(f"unknown kind {kind!r}")
    return {"x": x}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """idx[i] = the smallest j with x[i, j] == max_j x[i, j] (exact: comparisons round nothing)."""
    x = inputs["x"]
    n = params["n"]
    top = x.max(dim=1, keepdim=True).values
    cols = torch.arange(n, device=x.device).expand_as(x)
    first = torch.where(x == top, cols, n).min(dim=1).values
    return {"idx": first.to(torch.int64)}


def baseline(x: torch.Tensor, idx: torch.Tensor, m: int, n: int) -> None:
    """PyTorch's argmax over rows (int64 indices), narrowed into ``idx``."""
    idx.copy_(torch.argmax(x, dim=1))
