"""Separable Gaussian blur with clamp-to-edge borders: seeded images and kernels, the float64
reference, the error scale and a torch baseline.

With R = r // 2, a horizontal pass and then a vertical pass, each a correlation with the same
1-D kernel g of r taps, reading the nearest edge pixel where the window leaves the image:

    t[i, j] = sum_b g[b]·x[i, clamp(j + b - R, 0, w - 1)]
    y[i, j] = sum_a g[a]·t[clamp(i + a - R, 0, h - 1), j]

Kinds:
- ``gaussian``: x ~ U[0, 1) (pixel intensities); g the normalised Gaussian of standard
  deviation max(R / 2, 0.5) sampled at -R .. R (symmetric, positive, sums to 1).
- ``random``: x ~ N(0, 1) and g ~ N(0, 1): g is not symmetric, so a kernel applied flipped
  (a convolution instead of a correlation), or its taps shifted by one, shows at once.
- ``ramp``: x[i, j] = (i + 2j) / (h + 2w) + U[0, 0.01), g Gaussian: a smooth gradient, where
  padding with zeros or wrapping around instead of clamping is wrong by a large amount at
  every edge, while a blur of the interior changes little.
"""

from __future__ import annotations

import torch

MAX_TAPS = 63  # r <= 63: a radius of 31 at most


def _gaussian(r: int, device: torch.device) -> torch.Tensor:
    radius = r // 2
    sigma = max(radius / 2.0, 0.5)
    t = torch.arange(-radius, radius + 1, dtype=torch.float64, device=device)
    g = torch.exp(-0.5 * (t / sigma) ** 2)
    return (g / g.sum()).to(torch.float32)


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """``x`` (h x w float32) and ``g`` (r float32); every random number comes from ``gen``."""
    h, w, r = params["h"], params["w"], params["r"]
    if r % 2 == 0 or r > MAX_TAPS:
        raise ValueError(f"the kernel's length must be odd and at most {MAX_TAPS}, got r = {r}")
    if kind == "gaussian":
        x = torch.rand(h, w, generator=gen, device=device, dtype=torch.float32)
        g = _gaussian(r, device)
    elif kind == "random":
        x = torch.randn(h, w, generator=gen, device=device, dtype=torch.float32)
        g = torch.randn(r, generator=gen, device=device, dtype=torch.float32)
    elif kind == "ramp":
        i = torch.arange(h, device=device, dtype=torch.float32)[:, None]
        j = torch.arange(w, device=device, dtype=torch.float32)[None, :]
        noise = torch.rand(h, w, generator=gen, device=device, dtype=torch.float32)
        x = (i + 2.0 * j) / (h + 2.0 * w) + 0.01 * noise
        g = _gaussian(r, device)
    else:
        raise ValueError(f"unknown kind {kind!r}")
    return {"x": x, "g": g}


def _blur(x: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
    """The horizontal pass, then the vertical one, in x's dtype, a tap at a time."""
    h, w = x.shape
    radius = g.shape[0] // 2
    cols = torch.arange(w, device=x.device)
    rows = torch.arange(h, device=x.device)
    t = torch.zeros_like(x)
    for b in range(g.shape[0]):
        t += g[b] * x[:, (cols + b - radius).clamp(0, w - 1)]
    y = torch.zeros_like(x)
    for a in range(g.shape[0]):
        y += g[a] * t[(rows + a - radius).clamp(0, h - 1), :]
    return y


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """y, the two passes computed in float64."""
    return {"y": _blur(inputs["x"].to(torch.float64), inputs["g"].to(torch.float64))}


def error_scale(
    inputs: dict[str, torch.Tensor], params: dict[str, int], expected: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor | float]:
    """rtol is relative to the blur of |x| by |g|: the sum of |g[a]·g[b]·x| over each output's
    window, what float32 rounding of the r^2 products scales with, where y itself can cancel
    to near 0 (the random kind)."""
    x = inputs["x"].to(torch.float64).abs()
    return {"y": _blur(x, inputs["g"].to(torch.float64).abs())}


def baseline(x: torch.Tensor, g: torch.Tensor, y: torch.Tensor, h: int, w: int, r: int) -> None:
    """Two 1-D convolutions (cuDNN) on the image padded by replicating its edge, in float32
    (TF32 off: it rounds inputs to 10 bits of mantissa, far past the tolerance)."""
    radius = r // 2
    img = x.view(1, 1, h, w)
    with torch.backends.cudnn.flags(enabled=True, allow_tf32=False):
        t = torch.nn.functional.pad(img, (radius, radius, 0, 0), mode="replicate")
        t = torch.nn.functional.conv2d(t, g.view(1, 1, 1, r))
        t = torch.nn.functional.pad(t, (0, 0, radius, radius), mode="replicate")
        y.copy_(torch.nn.functional.conv2d(t, g.view(1, 1, r, 1)).view(h, w))
