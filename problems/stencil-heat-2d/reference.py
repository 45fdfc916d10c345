"""2-D heat equation, explicit 5-point stencil: seeded grids, the float64 reference, the error
scale and a torch baseline.

One step replaces every interior point by itself plus ALPHA times the discrete Laplacian,
u + ALPHA * (up + down + left + right - 4u); with ALPHA = 0.2 that is the mean of the point
and its four neighbours. Points on the first and last row and column are the boundary: they
keep their input values through every step (Dirichlet conditions).

Kinds:
- ``random``: u ~ N(0, 1) everywhere, boundary included: rough data, so every step changes
  the interior by O(1) and one step too many or too few shows at once.
- ``offset``: u ~ 1000 + N(0, 1): the part that changes is 1/1000 of the values, so a
  grid kept in float16 or bfloat16 between steps (rounding ~0.5 and ~4 at 1000) fails.
- ``hot_edge``: the interior starts at 0, the boundary holds U[0.5, 1.5): the heat flows in
  from the edges, and a kernel that updates the boundary, or pads it with zeros, is wrong
  from the first step.
"""

from __future__ import annotations

import torch

ALPHA = 0.2  # the diffusion number D·dt/dx²; explicit steps are stable for ALPHA <= 1/4


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """``u`` (h x w float32), the grid before the first step."""
    h, w = params["h"], params["w"]
    if kind == "random":
        u = torch.randn(h, w, generator=gen, device=device, dtype=torch.float32)
    elif kind == "offset":
        u = torch.randn(h, w, generator=gen, device=device, dtype=torch.float32) + 1000.0
    elif kind == "hot_edge":
        u = torch.rand(h, w, generator=gen, device=device, dtype=torch.float32) + 0.5
        u[1:-1, 1:-1] = 0.0
    else:
        raise ValueError(f"unknown kind {kind!r}")
    return {"u": u}


def _steps(u: torch.Tensor, steps: int) -> torch.Tensor:
    """``steps`` explicit steps of u, in u's dtype (the boundary is never written)."""
    u = u.clone()
    if u.shape[0] < 3 or u.shape[1] < 3:
        return u  # no interior point: every point is boundary
    nxt = u.clone()
    for _ in range(steps):
        c = u[1:-1, 1:-1]
        lap = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4.0 * c
        nxt[1:-1, 1:-1] = c + ALPHA * lap
        u, nxt = nxt, u
    return u


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """out = u after ``steps`` steps, computed in float64."""
    return {"out": _steps(inputs["u"].to(torch.float64), params["steps"])}


def error_scale(
    inputs: dict[str, torch.Tensor], params: dict[str, int], expected: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor | float]:
    """rtol is relative to max |u|: every step is a mean with nonnegative weights, so no value
    ever exceeds it, and float32 rounding errors, made at every step of every point and
    spread by the later ones, scale with it rather than with the point's own value."""
    return {"out": float(inputs["u"].abs().max())}


def baseline(u: torch.Tensor, out: torch.Tensor, h: int, w: int, steps: int) -> None:
    """Torch slicing, one step at a time in float32, ping-ponging between out and a scratch
    grid so that the last step lands in out."""
    out.copy_(u)
    if h < 3 or w < 3 or steps == 0:
        return
    other = u.clone()
    # the last step writes out: start from out when steps is even, from other when odd
    src, dst = (out, other) if steps % 2 == 0 else (other, out)
    for _ in range(steps):
        c = src[1:-1, 1:-1]
        torch.add(src[:-2, 1:-1], src[2:, 1:-1], out=dst[1:-1, 1:-1])
        dst[1:-1, 1:-1].add_(src[1:-1, :-2]).add_(src[1:-1, 2:]).add_(c).mul_(ALPHA)
        src, dst = dst, src
