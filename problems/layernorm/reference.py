"""LayerNorm over the rows of a bf16 matrix: inputs, the float64 reference, the error scale and
a torch baseline.

    y_ij = (x_ij - mu_i) / sqrt(var_i + eps) * gamma_j + beta_j,   eps = 1e-5,

with mu_i and var_i the mean and the biased variance (divided by n) of row i.

Kinds of input (x, gamma and beta rounded to bfloat16; gamma ~ 1 + 0.1·N(0, 1) and
beta ~ 0.1·N(0, 1), as trained LayerNorm weights are):
- ``random``: row i is mu_i + sigma_i·N(0, 1) with mu_i ~ N(0, 1) and sigma_i = e^(N(0, 1)/2).
- ``offset``: row i is ±256 + N(0, 1) (sign alternating by row): mean² / variance ≈ 5·10^4.
  Centring in bfloat16 loses the row (its values are 2 apart there), and a variance taken as
  E[x²] - E[x]² in float32 cancels away most of its digits.
- ``small``: x ~ 0.003·N(0, 1): the variance (~9e-6) is comparable to eps, so a kernel that
  leaves eps out, or adds it in the wrong place, is visibly wrong.
"""

from __future__ import annotations

import torch

EPS = 1e-5


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """Inputs ``x`` (m x n), ``gamma`` and ``beta`` (n); every random number comes from ``gen``."""
    m, n = params["m"], params["n"]

    def randn(*shape: int) -> torch.Tensor:
        return torch.randn(*shape, generator=gen, device=device, dtype=torch.float32)

    x = randn(m, n)
    if kind == "random":
        x = randn(m, 1) + torch.exp(0.5 * randn(m, 1)) * x
    elif kind == "offset":
        sign = 1.0 - 2.0 * (torch.arange(m, device=device, dtype=torch.float32) % 2)
        x = x + 256.0 * sign.reshape(m, 1)
    elif kind == "small":
        x = 0.003 * x
    else:
        raise ValueError(f"unknown kind {kind!r} (expected random, offset or small)")
    gamma = 1.0 + 0.1 * randn(n)
    beta = 0.1 * randn(n)
    bf16 = torch.bfloat16
    return {"x": x.to(bf16), "gamma": gamma.to(bf16), "beta": beta.to(bf16)}


def _normalized(inputs: dict[str, torch.Tensor]) -> torch.Tensor:
    """(x - mean) / sqrt(var + eps) per row, in float64 from the bf16 inputs."""
    x = inputs["x"].to(torch.float64)
    mean = x.mean(dim=1, keepdim=True)
    var = (x - mean).square().mean(dim=1, keepdim=True)
    return (x - mean) / torch.sqrt(var + EPS)


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """y = normalized(x) · gamma + beta, in float64."""
    gamma, beta = inputs["gamma"].to(torch.float64), inputs["beta"].to(torch.float64)
    return {"y": _normalized(inputs) * gamma + beta}


def error_scale(
    inputs: dict[str, torch.Tensor], params: dict[str, int], expected: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor | float]:
    """rtol is relative to |x̂·gamma| + |beta|: the size of the two terms y adds up.

    Where x̂·gamma and beta nearly cancel, |y| is small but the rounding of the terms is not;
    problem.toml argues the tolerance.
    """
    gamma, beta = inputs["gamma"].to(torch.float64), inputs["beta"].to(torch.float64)
    return {"y": (_normalized(inputs) * gamma).abs() + beta.abs()}


def baseline(
    x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, y: torch.Tensor, m: int, n: int
) -> None:
    """PyTorch's fused LayerNorm kernel (float32 statistics, Welford).

    F.layer_norm has no out= form. Its result is left in the fresh tensor it allocates rather
    than copied into ``y``: a copy would move 2·m·n bytes more than the kernel and halve the
    speed a learner is compared with. The baseline is timed, never checked.
    """
    torch.nn.functional.layer_norm(x, (n,), gamma, beta, EPS)
