"""Stream compaction (keep x > 0, in order): inputs, the exact reference and a torch baseline.

Kinds of input:
- ``random``: x ~ N(0, 1): about half kept, in no pattern.
- ``positive``: x ~ U[0.5, 1.5): everything kept (count = n).
- ``negative``: x ~ -U[0.5, 1.5): nothing kept (count = 0).
- ``signs``: values drawn from {-1, -0.0, 0.0, NaN, 0.5, 2}: zeros of both signs and NaN
  are not > 0, so ``x >= 0`` or ``!(x <= 0)`` keeps too much.
- ``sparse``: 1% of the values positive, the rest negative.
"""

from __future__ import annotations

import torch


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """Input ``x`` of ``n`` float32; every random number comes from ``gen``."""
    n = params["n"]
    f32 = torch.float32
    u = torch.rand(n, generator=gen, device=device, dtype=f32)
    if kind == "random":
        x = torch.randn(n, generator=gen, device=device, dtype=f32)
    elif kind == "positive":
        x = u + 0.5
    elif kind == "negative":
        x = -(u + 0.5)
    elif kind == "signs":
        choices = torch.tensor([-1.0, -0.0, 0.0, float("nan"), 0.5, 2.0], device=device)
        x = choices[torch.randint(0, 6, (n,), generator=gen, device=device)]
    elif kind == "sparse":
        x = torch.where(u < 0.01, u + 1.0, -u - 0.5)
    else:
        raise ValueError(f"unknown kind {kind!r}")
    return {"x": x}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """out[:count] = the x > 0, in input order; count = how many. Beyond the count, out is NaN:
    not part of the answer (checkers/compaction.py ignores it; the referee's probes skip it)."""
    x = inputs["x"]
    kept = x[x > 0].to(torch.float64)
    out = torch.full((params["n"],), float("nan"), dtype=torch.float64, device=x.device)
    out[: kept.numel()] = kept
    return {"out": out, "count": torch.tensor([kept.numel()], dtype=torch.int64)}


def baseline(x: torch.Tensor, out: torch.Tensor, count: torch.Tensor, n: int) -> None:
    """PyTorch's boolean-mask selection (a scan and a scatter), copied into the outputs. It
    synchronises once to learn the count, as any torch version of this must."""
    kept = x[x > 0]
    out[: kept.numel()].copy_(kept)
    count.fill_(kept.numel())
