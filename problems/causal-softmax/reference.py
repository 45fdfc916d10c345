"""Causal softmax of attention scores: seeded fp16 inputs, a float64 reference, a torch baseline.

Trusted code, run by the referee (docs/problem-format.md). ``x`` holds unscaled scores
q·k (float16, ``[b, h, s, s]``), ``scale`` a one-element float32 tensor (1/√d in a model).
Row i of each head keeps columns 0..i: y = softmax(scale · x) over them, 0 above the diagonal.

Kinds of input:
- ``random``: x ~ N(0, 30²) and scale = 1/√128, so the scaled scores have standard deviation
  ~2.7: a few columns carry most of a long row's weight, none carries all of it.
- ``large``: scaled scores ±106 + N(0, 2.7²), + on even heads and - on odd ones. exp() of them
  overflows (+) or underflows to 0 (-) in float32, so only a kernel that subtracts the row
  maximum gets them right.
- ``unit_scale``: scale = 1 and x ~ N(0, 2²): a kernel that ignores ``scale`` (or hard-codes
  1/√128) is wrong on every case except this one, and right here only by accident.
"""

from __future__ import annotations

import math

import torch

_KINDS = {
    # kind: (std of x, offset of the scaled scores, scale)
    "random": (30.0, 0.0, 1.0 / math.sqrt(128.0)),
    "large": (30.0, 106.0, 1.0 / math.sqrt(128.0)),
    "unit_scale": (2.0, 0.0, 1.0),
}


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    b, h, s = params["b"], params["h"], params["s"]
    if kind not in _KINDS:
        raise ValueError(f"unknown kind {kind!r} (expected one of {sorted(_KINDS)})")
    std, offset, scale = _KINDS[kind]
    x = torch.randn((b, h, s, s), generator=gen, device=device, dtype=torch.float32) * std
    if offset:
        sign = 1.0 - 2.0 * (torch.arange(h, device=device, dtype=torch.float32) % 2)
        x += (sign * offset / scale).reshape(1, h, 1, 1)
    scale_t = torch.tensor([scale], dtype=torch.float32, device=device)
    return {"x": x.to(torch.float16), "scale": scale_t}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """softmax(scale · x) over columns 0..i of row i, zeros above, in float64 from the fp16 x.

    One head at a time (an [s, s] float64 block: 32 MiB at s = 2048), stored as float32,
    which holds the float64 result to 2^-24 relative: far below the tolerance."""
    x = inputs["x"]
    b, h, s = params["b"], params["h"], params["s"]
    scale = float(inputs["scale"].double().item())
    above = torch.ones((s, s), dtype=torch.bool, device=x.device).triu(1)
    out = torch.empty((b, h, s, s), dtype=torch.float32, device=x.device)
    for i in range(b):
        for j in range(h):
            z = (x[i, j].double() * scale).masked_fill(above, float("-inf"))
            out[i, j] = torch.softmax(z, dim=-1).float()
    return {"y": out}


def baseline(x: torch.Tensor, scale: torch.Tensor, y: torch.Tensor, b: int, h: int, s: int) -> None:
    """What eager PyTorch does without a fused kernel: scale in float32 (fp16 products would
    round the scores by up to 2^-11 of their size), mask, softmax, round to fp16."""
    above = torch.ones((s, s), dtype=torch.bool, device=x.device).triu(1)
    z = (x.float() * scale).masked_fill_(above, float("-inf"))
    y.copy_(torch.softmax(z, dim=-1))
