"""Histogram of bytes: inputs, the exact reference and a torch baseline.

Kinds of input:
- ``uniform`` (and ``random``, the default): bytes uniform on 0..255 (little contention:
  every bin gets ~n/256).
- ``skewed``: 90% of the bytes are one value (drawn per case), the rest uniform: the
  benchmark's contended case, where 90% of all increments hit one counter.
- ``single``: every byte the same value (drawn per case): one bin gets n, the others 0.
- ``high``: bytes uniform on 128..255, which a kernel reading them as signed ``char`` turns
  into negative bin numbers.
"""

from __future__ import annotations

import torch


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """Input ``data`` of ``n`` bytes; every random number comes from ``gen``."""
    n = params["n"]
    u8 = torch.uint8

    def uniform(lo: int, hi: int, size: int) -> torch.Tensor:
        return torch.randint(lo, hi, (size,), generator=gen, device=device, dtype=u8)

    if kind in ("uniform", "random"):
        data = uniform(0, 256, n)
    elif kind == "high":
        data = uniform(128, 256, n)
    elif kind == "single":
        data = uniform(0, 256, 1).expand(n).contiguous()
    elif kind == "skewed":
        value = uniform(0, 256, 1)
        hit = torch.rand(n, generator=gen, device=device) < 0.9
        data = torch.where(hit, value, uniform(0, 256, n))
    else:
        raise ValueError(f"unknown kind {kind!r}")
    return {"data": data}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """bins[v] = how many bytes equal v (exact integer counts, int64). Counted from the bytes
    themselves: widening 2^28 of them to int64 first wrote 2 GiB for every timed call."""
    return {"bins": torch.bincount(inputs["data"], minlength=256)}


def baseline(data: torch.Tensor, bins: torch.Tensor, n: int) -> None:
    """PyTorch's bincount (int64 counts), narrowed into ``bins``."""
    bins.copy_(torch.bincount(data, minlength=256))
