"""1-D convolution (cross-correlation, "valid" outputs): inputs, the float64 reference, the
error scale and a torch baseline.

Kinds of input:
- ``random``: x ~ N(0, 1), w ~ N(0, 1): signs mixed, each output cancels down to about
  sqrt(k) of the sum of |x·w| it is made of.
- ``offset``: x ~ 2 + N(0, 1), w ~ U[0, 1): every product positive, so outputs grow with k and
  an accumulator with few mantissa bits loses most of its low-order sums.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """Inputs ``x`` (n) and ``w`` (k); every random number comes from ``gen``."""
    n, k = params["n"], params["k"]
    if k > n:
        raise ValueError(f"the filter is longer than the signal: k = {k} > n = {n}")
    x = torch.randn(n, generator=gen, device=device, dtype=torch.float32)
    if kind == "random":
        w = torch.randn(k, generator=gen, device=device, dtype=torch.float32)
    elif kind == "offset":
        x = x + 2.0
        w = torch.rand(k, generator=gen, device=device, dtype=torch.float32)
    else:
        raise ValueError(f"unknown kind {kind!r}")
    return {"x": x, "w": w}


def _correlate(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """y[i] = sum_j x[i + j] * w[j] for the n - k + 1 windows that fit (F.conv1d's "valid")."""
    return F.conv1d(x.reshape(1, 1, -1), w.reshape(1, 1, -1)).reshape(-1)


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """y = x ⋆ w in float64."""
    return {"y": _correlate(inputs["x"].to(torch.float64), inputs["w"].to(torch.float64))}


def error_scale(
    inputs: dict[str, torch.Tensor], params: dict[str, int], expected: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor | float]:
    """rtol is relative to sum_j |x[i + j]·w[j]|, what float32 rounding of each output scales
    with (|y[i]| itself can be near 0 after cancellation)."""
    x = inputs["x"].to(torch.float64).abs()
    w = inputs["w"].to(torch.float64).abs()
    return {"y": _correlate(x, w)}


def baseline(x: torch.Tensor, w: torch.Tensor, y: torch.Tensor, n: int, k: int) -> None:
    """cuDNN's convolution writing straight into ``y`` (the 1-D case as a 1-row 2-D one, as
    torch.conv1d runs it), with benchmark=True so cuDNN times its algorithms in the first,
    untimed call and keeps the fastest, and TF32 off: TF32 inputs would not meet the
    tolerance every submission is held to."""
    torch.ops.aten.cudnn_convolution.out(
        x.view(1, 1, 1, n),
        w.view(1, 1, 1, k),
        [0, 0],  # padding
        [1, 1],  # stride
        [1, 1],  # dilation
        1,  # groups
        True,  # benchmark
        False,  # deterministic
        False,  # allow_tf32
        out=y.view(1, 1, 1, n - k + 1),
    )
