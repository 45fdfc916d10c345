"""SwiGLU's gating (the activation of Llama-style MLPs): inputs, the float64 reference and a
torch baseline.

    y = silu(gate) · up = gate · sigmoid(gate) · up

Kinds of input (rounded to bfloat16):
- ``random``: gate ~ 2·N(0, 1), up ~ N(0, 1): most gates where silu bends.
- ``tails``: gate ~ U(-20, 20), up ~ N(0, 1): large |gate|. For gate < -11.1, exp(-gate)
  passes float16's largest value (65504), so a sigmoid through a float16 exp returns 0 where
  the answer is small but not 0 (silu(-20) ≈ -4.1e-8, a normal bf16 number).
"""

from __future__ import annotations

import torch


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """Inputs ``gate`` and ``up`` (m x n); every random number comes from ``gen``."""
    m, n = params["m"], params["n"]
    if kind == "random":
        gate = 2.0 * torch.randn(m, n, generator=gen, device=device, dtype=torch.float32)
    elif kind == "tails":
        gate = torch.rand(m, n, generator=gen, device=device, dtype=torch.float32) * 40.0 - 20.0
    else:
        raise ValueError(f"unknown kind {kind!r} (expected random or tails)")
    up = torch.randn(m, n, generator=gen, device=device, dtype=torch.float32)
    return {"gate": gate.to(torch.bfloat16), "up": up.to(torch.bfloat16)}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """y = gate · sigmoid(gate) · up in float64 (sigmoid of float64 keeps its relative
    precision for negative gates: no 1 - something cancellation)."""
    g = inputs["gate"].to(torch.float64)
    return {"y": g * torch.sigmoid(g) * inputs["up"].to(torch.float64)}


def baseline(gate: torch.Tensor, up: torch.Tensor, y: torch.Tensor, m: int, n: int) -> None:
    """PyTorch eager, as an unfused model runs it: F.silu into a temporary, then a multiply
    straight into ``y`` (two kernels, 10 bytes per element against a fused kernel's 6)."""
    torch.mul(torch.nn.functional.silu(gate), up, out=y)
