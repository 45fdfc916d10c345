"""2-D convolution (cross-correlation, zero padding, "same" size): inputs, the float64
reference, the error scale and a torch baseline.

Kinds of input:
- ``random``: x ~ N(0, 1), f ~ N(0, 1): signs mixed.
- ``offset``: x ~ 2 + N(0, 1), f ~ U[0, 1): every product positive, so the outputs near the
  border (where part of the window is padding) differ clearly from the inner ones, and an
  accumulator with few mantissa bits loses its low-order sums.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """Inputs ``x`` (h x w) and ``f`` (r x r); every random number comes from ``gen``."""
    h, w, r = params["h"], params["w"], params["r"]
    if r % 2 == 0 or r > 31:
        raise ValueError(f"the filter size must be odd and at most 31, got r = {r}")
    x = torch.randn(h, w, generator=gen, device=device, dtype=torch.float32)
    if kind == "random":
        f = torch.randn(r, r, generator=gen, device=device, dtype=torch.float32)
    elif kind == "offset":
        x = x + 2.0
        f = torch.rand(r, r, generator=gen, device=device, dtype=torch.float32)
    else:
        raise ValueError(f"unknown kind {kind!r}")
    return {"x": x, "f": f}


def _correlate(x: torch.Tensor, f: torch.Tensor) -> torch.Tensor:
    """y[i, j] = sum_{a, b} x[i + a - r//2, j + b - r//2]·f[a, b], x zero outside the image."""
    r = f.shape[0]
    return F.conv2d(x[None, None], f[None, None], padding=r // 2)[0, 0]


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """y = x ⋆ f in float64."""
    return {"y": _correlate(inputs["x"].to(torch.float64), inputs["f"].to(torch.float64))}


def error_scale(
    inputs: dict[str, torch.Tensor], params: dict[str, int], expected: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor | float]:
    """rtol is relative to sum |x·f| over each output's window (the padding contributes 0):
    what float32 rounding scales with, where |y| itself can cancel to near 0."""
    x = inputs["x"].to(torch.float64).abs()
    f = inputs["f"].to(torch.float64).abs()
    return {"y": _correlate(x, f)}


def baseline(x: torch.Tensor, f: torch.Tensor, y: torch.Tensor, h: int, w: int, r: int) -> None:
    """cuDNN's convolution writing straight into ``y``, with benchmark=True so cuDNN times
    its algorithms in the first, untimed call and keeps the fastest, and TF32 off: TF32
    inputs would not meet the tolerance every submission is held to."""
    torch.ops.aten.cudnn_convolution.out(
        x.view(1, 1, h, w),
        f.view(1, 1, r, r),
        [r // 2, r // 2],  # padding
        [1, 1],  # stride
        [1, 1],  # dilation
        1,  # groups
        True,  # benchmark
        False,  # deterministic
        False,  # allow_tf32
        out=y.view(1, 1, h, w),
    )
