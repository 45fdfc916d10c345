"""RGB to grayscale: inputs, the float64 reference and a torch baseline.

    y = (0.299 R + 0.587 G + 0.114 B) / 255     (ITU-R BT.601 luma, scaled to [0, 1])

Kinds of input (uint8, shape h x w x 3, channels interleaved per pixel):
- ``random``: every byte uniform in 0..255.
- ``extremes``: every byte 0 or 255: the eight corners of the colour cube.
"""

from __future__ import annotations

import torch

COEFFS = (0.299, 0.587, 0.114)


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """Input ``rgb`` of shape (h, w, 3); every random number comes from ``gen``."""
    shape = (params["h"], params["w"], 3)
    if kind == "random":
        rgb = torch.randint(0, 256, shape, generator=gen, device=device, dtype=torch.uint8)
    elif kind == "extremes":
        bits = torch.randint(0, 2, shape, generator=gen, device=device, dtype=torch.uint8)
        rgb = bits * 255
    else:
        raise ValueError(f"unknown kind {kind!r} (expected random or extremes)")
    return {"rgb": rgb}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """y = (0.299 R + 0.587 G + 0.114 B) / 255 in float64."""
    v = inputs["rgb"].to(torch.float64)
    r, g, b = COEFFS
    return {"y": (r * v[..., 0] + g * v[..., 1] + b * v[..., 2]) / 255.0}


def baseline(rgb: torch.Tensor, y: torch.Tensor, h: int, w: int) -> None:
    """The formula in torch, in place in ``y``: three elementwise passes.

    torch has no fused operator for this; the fewest passes that need no temporary are a
    multiply into y and two multiply-adds, about 25 bytes of traffic per pixel against the
    7 a single kernel moves.
    """
    r, g, b = (c / 255.0 for c in COEFFS)
    torch.mul(rgb[..., 0], r, out=y)
    y.add_(rgb[..., 1], alpha=g)
    y.add_(rgb[..., 2], alpha=b)
