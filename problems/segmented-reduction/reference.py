"""Segmented reduction: seeded arrays cut into segments by CSR-style offsets, the float64
reference, the error scale and a torch baseline.

``offsets`` has segments + 1 entries: offsets[0] = 0, offsets[segments] = n, nondecreasing;
segment s is x[offsets[s] : offsets[s + 1]], and may be empty. Segment lengths, by kind:
- ``random``, ``mixed``, ``positive``, ``large``: power-law lengths (Pareto weights, alpha
  1.2): most segments short, a few thousands of times the mean; short ones round to empty.
- ``empty``: power-law, but about half the segments are empty, the first and the last among
  them (with three segments or more), so runs of empty segments occur everywhere.
- ``one_huge``: one segment, never the first or the last (with three or more), holds ~15/16
  of x; the others share the rest.
- ``uniform``: every segment the same length, to within one.
Values, by kind: ``random``, ``empty``, ``uniform``: N(1, 1); ``mixed``: 3·N(0, 1) - 1
(signs mixed, sums cancel); ``positive``, ``one_huge``: U[0, 1) (rounding errors of a long
running sum all grow with it); ``large``: 3e4·N(1, 1), whose segment sums pass float16's
largest value, 65504.
"""

from __future__ import annotations

import torch

ALPHA = 1.2  # Pareto tail index of the segment weights: a heavy tail, finite mean


def _weights(segments: int, kind: str, gen: torch.Generator, device: torch.device) -> torch.Tensor:
    u = torch.rand(segments, generator=gen, device=device, dtype=torch.float64)
    if kind == "uniform":
        return torch.ones(segments, dtype=torch.float64, device=device)
    w = (1.0 - u).clamp_min(1e-12) ** (-1.0 / ALPHA)
    if kind == "empty":
        keep = torch.rand(segments, generator=gen, device=device) < 0.5
        if segments >= 3:
            keep[0] = keep[-1] = False
        if not bool(keep.any()):
            keep[segments // 2] = True
        w = torch.where(keep, w, torch.zeros_like(w))
    elif kind == "one_huge":
        huge = int(torch.randint(1, max(segments - 1, 2), (1,), generator=gen, device=device))
        huge = min(huge, segments - 1)
        others = w.sum() - w[huge]
        w = w / (15.0 * others) if float(others) > 0 else w
        w[huge] = 1.0
    elif kind not in ("random", "mixed", "positive", "large"):
        raise ValueError(f"unknown kind {kind!r}")
    return w


def _lengths(n: int, w: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Segment lengths (int64) in proportion to w, summing to exactly n; a segment of weight
    0 stays empty."""
    lengths = torch.floor(n * w / w.sum()).to(torch.int64)
    left = n - int(lengths.sum())  # fewer than the segments of nonzero weight
    if left > 0:
        order = torch.randperm(len(w), generator=gen, device=w.device)
        allowed = (w[order] > 0).to(torch.int64)
        take = allowed * (torch.cumsum(allowed, 0) <= left)
        lengths[order] += take
    return lengths


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """``x`` (n float32) and ``offsets`` (segments + 1 int32); every random number comes from
    ``gen``."""
    n, segments = params["n"], params["segments"]
    lengths = _lengths(n, _weights(segments, kind, gen, device), gen)
    offsets = torch.zeros(segments + 1, dtype=torch.int64, device=device)
    offsets[1:] = torch.cumsum(lengths, 0)
    if kind in ("positive", "one_huge"):
        x = torch.rand(n, generator=gen, device=device, dtype=torch.float32)
    else:
        x = torch.randn(n, generator=gen, device=device, dtype=torch.float32)
        if kind == "mixed":
            x = x * 3.0 - 1.0
        elif kind == "large":
            x = (x + 1.0) * 3e4
        else:
            x = x + 1.0
    return {"x": x, "offsets": offsets.to(torch.int32)}


def _segment_sums(
    inputs: dict[str, torch.Tensor], params: dict[str, int], absolute: bool
) -> torch.Tensor:
    n, segments = params["n"], params["segments"]
    offsets = inputs["offsets"].to(torch.int64)
    ids = torch.repeat_interleave(
        torch.arange(segments, device=offsets.device), offsets[1:] - offsets[:-1], output_size=n
    )
    x = inputs["x"].to(torch.float64)
    if absolute:
        x = x.abs()
    return torch.zeros(segments, dtype=torch.float64, device=offsets.device).index_add_(0, ids, x)


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """out[s] = sum of x[offsets[s] : offsets[s + 1]] in float64 (an empty segment gives 0)."""
    return {"out": _segment_sums(inputs, params, absolute=False)}


def error_scale(
    inputs: dict[str, torch.Tensor], params: dict[str, int], expected: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor | float]:
    """rtol is relative to the segment's sum of |x|, what float32 rounding of its sum scales
    with; 0 for an empty segment, whose 0 must then be exact."""
    return {"out": _segment_sums(inputs, params, absolute=True)}


def baseline(
    x: torch.Tensor, offsets: torch.Tensor, out: torch.Tensor, n: int, segments: int
) -> None:
    """PyTorch's segment_reduce over the offsets (its CUDA kernel), copied into ``out``."""
    out.copy_(torch.segment_reduce(x, "sum", offsets=offsets, axis=0))
