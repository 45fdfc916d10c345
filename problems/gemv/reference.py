"""Matrix-vector product with bf16 inputs: inputs, the float64 reference, the error scale and
a torch baseline.

Kinds of input (all rounded to bfloat16):
- ``random``: w, x ~ N(0, 1): zero-mean like trained weights; each row sum cancels to ~1% of
  sum_j |w_ij x_j|.
- ``positive``: w, x ~ U[0, 1): no cancellation.
- ``biased``: w ~ N(0.25, 1), x ~ N(1, 1): mixed signs, |y_i| ≈ 0.3 sum_j |w_ij x_j|.
"""

from __future__ import annotations

import torch


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """Inputs ``w`` (m x k) and ``x`` (k); every random number comes from ``gen``."""
    m, k = params["m"], params["k"]

    def draw(*shape: int) -> torch.Tensor:
        if kind == "positive":
            return torch.rand(*shape, generator=gen, device=device, dtype=torch.float32)
        return torch.randn(*shape, generator=gen, device=device, dtype=torch.float32)

    if kind not in ("random", "positive", "biased"):
        raise ValueError(f"unknown kind {kind!r} (expected random, positive or biased)")
    w, x = draw(m, k), draw(k)
    if kind == "biased":
        w, x = w + 0.25, x + 1.0
    return {"w": w.to(torch.bfloat16), "x": x.to(torch.bfloat16)}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """y = w @ x in float64 (every product of two bfloat16 numbers is exact there)."""
    return {"y": inputs["w"].to(torch.float64) @ inputs["x"].to(torch.float64)}


def error_scale(
    inputs: dict[str, torch.Tensor], params: dict[str, int], expected: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor | float]:
    """rtol is relative to sum_j |w_ij x_j| per row: what float32 rounding of a sum scales with."""
    w, x = inputs["w"].to(torch.float64), inputs["x"].to(torch.float64)
    return {"y": w.abs() @ x.abs()}


def baseline(w: torch.Tensor, x: torch.Tensor, y: torch.Tensor, m: int, k: int) -> None:
    """PyTorch's matrix-vector product in bf16 (cuBLAS), converted into ``y``.

    torch.mv returns bfloat16 for bfloat16 inputs; the conversion into y reads and writes
    m values, nothing next to the m·k weights the product reads.
    """
    y.copy_(torch.mv(w, x))
