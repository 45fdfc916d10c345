"""LayerNorm backward: inputs, the float64 reference, the error scales and a torch baseline.

The forward pass y = x̂·gamma + beta, x̂_ij = (x_ij - mean_i)·rstd_i, saved mean and rstd per
row (float32, as torch's native_layer_norm does, eps = 1e-5 inside rstd). Given dy = dL/dy:

    g_ij = dy_ij·gamma_j,  a_i = (1/n) sum_k g_ik,  b_i = (1/n) sum_k g_ik·x̂_ik
    dx_ij = rstd_i·(g_ij - a_i - x̂_ij·b_i)
    dgamma_j = sum_i dy_ij·x̂_ij,  dbeta_j = sum_i dy_ij

Kinds (gamma ~ 1 + 0.1·N(0, 1) always):
- ``random``: row i is mu_i + sigma_i·N(0, 1) (mu_i ~ N(0, 1), sigma_i = e^(N(0, 1)/2)); dy ~ N(0, 1).
- ``offset``: as random, but dy ~ 10 + N(0, 1): dbeta and a_i are large, dx is what is left
  after g - a_i cancels, and float16 partial sums lose it.
- ``shifted``: row i is ±256 + N(0, 1) (sign by row): x - mean cancels to a few units.

The tolerance's worst sound kernel (problem.toml): a float32 sum of the 16384 rows of an
"offset" column in sequence (a loop of float32 row additions on the CPU) erred by at most
6.8e-6 of sum_i |dy_ij| over 1024 columns; torch's native_layer_norm_backward by 2.6e-6 of
the dx scale and 3.1e-6 of dbeta's. dx rounded to bfloat16: 1.2e-3 of the scale.
"""

from __future__ import annotations

import torch

EPS = 1e-5


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """x, dy (m x n), gamma (n), and the forward's mean and rstd (m), all float32."""
    m, n = params["m"], params["n"]

    def randn(*shape: int) -> torch.Tensor:
        return torch.randn(*shape, generator=gen, device=device, dtype=torch.float32)

    x = randn(m, n)
    dy = randn(m, n)
    if kind in ("random", "offset"):
        x = randn(m, 1) + torch.exp(0.5 * randn(m, 1)) * x
        if kind == "offset":
            dy = dy + 10.0
    elif kind == "shifted":
        sign = 1.0 - 2.0 * (torch.arange(m, device=device, dtype=torch.float32) % 2)
        x = x + 256.0 * sign.reshape(m, 1)
    else:
        raise ValueError(f"unknown kind {kind!r} (expected random, offset or shifted)")
    gamma = 1.0 + 0.1 * randn(n)
    # The statistics a forward kernel saves: exact in float64, rounded once to float32.
    x64 = x.to(torch.float64)
    mean = x64.mean(dim=1)
    var = (x64 - mean[:, None]).square().mean(dim=1)
    rstd = torch.rsqrt(var + EPS)
    f32 = torch.float32
    return {"x": x, "dy": dy, "gamma": gamma, "mean": mean.to(f32), "rstd": rstd.to(f32)}


def _terms(
    inputs: dict[str, torch.Tensor],
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """x̂, g = dy·gamma, dy and rstd (as a column), in float64 from the given inputs."""
    f64 = torch.float64
    rstd = inputs["rstd"].to(f64)[:, None]
    xhat = (inputs["x"].to(f64) - inputs["mean"].to(f64)[:, None]) * rstd
    dy = inputs["dy"].to(f64)
    return xhat, dy * inputs["gamma"].to(f64), dy, rstd


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """dx, dgamma and dbeta in float64, from the saved mean and rstd as given."""
    xhat, g, dy, rstd = _terms(inputs)
    a = g.mean(dim=1, keepdim=True)
    b = (g * xhat).mean(dim=1, keepdim=True)
    return {
        "dx": rstd * (g - a - xhat * b),
        "dgamma": (dy * xhat).sum(dim=0),
        "dbeta": dy.sum(dim=0),
    }


def error_scale(
    inputs: dict[str, torch.Tensor], params: dict[str, int], expected: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor | float]:
    """rtol is relative to the size of the terms each output adds up (problem.toml): dx cancels
    to near 0 where g_ij ≈ a_i + x̂_ij·b_i, a column sum of dy ~ 10 does not."""
    xhat, g, dy, rstd = _terms(inputs)
    ag = g.abs()
    dx_scale = rstd * (
        ag + ag.mean(dim=1, keepdim=True) + xhat.abs() * (ag * xhat.abs()).mean(dim=1, keepdim=True)
    )
    return {
        "dx": dx_scale,
        "dgamma": (dy * xhat).abs().sum(dim=0),
        "dbeta": dy.abs().sum(dim=0),
    }


def baseline(
    x: torch.Tensor,
    dy: torch.Tensor,
    gamma: torch.Tensor,
    mean: torch.Tensor,
    rstd: torch.Tensor,
    dx: torch.Tensor,
    dgamma: torch.Tensor,
    dbeta: torch.Tensor,
    m: int,
    n: int,
) -> None:
    """PyTorch's fused LayerNorm backward (what autograd runs after F.layer_norm).

    It has no out= form: its results stay in the tensors it allocates (copying them into dx
    would add 8·m·n bytes the kernel does not move). Timed, never checked.
    """
    torch.ops.aten.native_layer_norm_backward(
        dy, x, (n,), mean.reshape(m, 1), rstd.reshape(m, 1), gamma, gamma, (True, True, True)
    )
