"""RMSNorm with a fused residual add (a pre-norm transformer's "add & norm"): inputs, the
float64 reference and a torch baseline.

    h = x + res,   res_out = h,   y_ij = h_ij / sqrt(mean_j(h_ij²) + eps) · w_j,   eps = 1e-6.

Kinds of input (all rounded to bfloat16; w ~ 1 + 0.1·N(0, 1) as trained weights are):
- ``random``: x ~ N(0, 1) (a sublayer's output), res ~ 4·N(0, 1) (the residual stream).
- ``outliers``: as random, plus a few "massive activation" columns in the residual stream
  (8 columns of ±300): the sum of squares spans five orders of magnitude, which a bf16
  running sum cannot hold.
- ``small``: x ~ 0.001·N(0, 1), res ~ 0.0005·N(0, 1): mean(h²) ~ 1.3e-6, comparable to
  eps, so a kernel that leaves eps out is visibly wrong.
"""

from __future__ import annotations

import torch

EPS = 1e-6


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """Inputs ``x``, ``res`` (m x n) and ``w`` (n); every random number comes from ``gen``."""
    m, n = params["m"], params["n"]

    def randn(*shape: int) -> torch.Tensor:
        return torch.randn(*shape, generator=gen, device=device, dtype=torch.float32)

    x, res, w = randn(m, n), randn(m, n), 1.0 + 0.1 * randn(n)
    if kind == "random":
        res = 4.0 * res
    elif kind == "outliers":
        res = 4.0 * res
        cols = torch.randperm(n, generator=gen, device=device)[: min(8, n)]
        res[:, cols] += 300.0 * torch.sign(randn(m, cols.numel()))
    elif kind == "small":
        x, res = 0.001 * x, 0.0005 * res
    else:
        raise ValueError(f"unknown kind {kind!r} (expected random, outliers or small)")
    bf16 = torch.bfloat16
    return {"x": x.to(bf16), "res": res.to(bf16), "w": w.to(bf16)}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """res_out = x + res and y = RMSNorm(x + res) · w, in float64 from the bf16 inputs.

    The sum is taken exactly; a kernel that normalizes the sum rounded to bf16 (as it must
    store it anyway) is within the tolerance (problem.toml).
    """
    h = inputs["x"].to(torch.float64) + inputs["res"].to(torch.float64)
    rms = torch.sqrt(h.square().mean(dim=1, keepdim=True) + EPS)
    return {"y": h / rms * inputs["w"].to(torch.float64), "res_out": h}


def baseline(
    x: torch.Tensor,
    res: torch.Tensor,
    w: torch.Tensor,
    y: torch.Tensor,
    res_out: torch.Tensor,
    m: int,
    n: int,
) -> None:
    """PyTorch eager: the residual add into ``res_out``, then F.rms_norm over it.

    F.rms_norm has no out= form; its result stays in the fresh tensor it allocates rather
    than being copied into ``y`` (a copy would add 4·m·n bytes the kernels do not move). The
    baseline is timed, never checked.
    """
    torch.add(x, res, out=res_out)
    torch.nn.functional.rms_norm(res_out, (n,), w, EPS)
