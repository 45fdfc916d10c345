"""Inclusive prefix sum of int32: inputs, the exact reference and a torch baseline.

Every case keeps every prefix sum inside int32 (the statement promises it), so the reference
is the exact int64 cumulative sum. Kinds of input:
- ``random``: integers uniform on -100..100 (sums wander around 0).
- ``ones``: every element 1, so y[i] = i + 1: an off-by-one (an exclusive scan, a shifted
  index) is plain in the message.
- ``large``: integers uniform on 0..1000, used up to n = 2^21 (the sum stays below
  2.1e9): the sums pass 2^24 early, where float32 can no longer hold every integer.
- ``negative``: integers uniform on -1000..-1, up to n = 2^21.
"""

from __future__ import annotations

import torch


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """Input ``x`` of ``n`` int32; every random number comes from ``gen``."""
    n = params["n"]

    def ints(lo: int, hi: int) -> torch.Tensor:
        return torch.randint(lo, hi + 1, (n,), generator=gen, device=device, dtype=torch.int32)

    if kind == "random":
        x = ints(-100, 100)
    elif kind == "ones":
        x = torch.ones(n, device=device, dtype=torch.int32)
    elif kind == "large":
        x = ints(0, 1000)
    elif kind == "negative":
        x = ints(-1000, -1)
    else:
        raise ValueError(f"unknown kind {kind!r}")
    if kind in ("large", "negative") and n > 1 << 21:
        raise ValueError(f"kind {kind!r} may overflow int32 beyond n = 2^21 (n = {n})")
    return {"x": x}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """y[i] = x[0] + ... + x[i], exact in int64."""
    return {"y": torch.cumsum(inputs["x"].to(torch.int64), dim=0)}


def baseline(x: torch.Tensor, y: torch.Tensor, n: int) -> None:
    """PyTorch's cumsum (a single-pass device scan), in int32 straight into ``y``."""
    torch.cumsum(x, dim=0, dtype=torch.int32, out=y)
