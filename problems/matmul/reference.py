"""Matrix multiplication: seeded inputs, float64 reference, per-element error scale, baseline.

Trusted code, run by the referee (see docs/problem-format.md). Kinds of input:

- ``random``: entries uniform in [-1, 1), full float32 mantissas. Zero mean, so the entries of c
  are sums of products that partly cancel, and the relative error of a method does not shrink
  with k: TF32 stays at ~3e-4 to ~7e-4 and bf16 at ~2e-3 for every shape (problem.toml).
- ``exact``: the same, rounded to 8 significant bits (exactly representable in bf16, TF32 and
  float32), so every method's products are exact. Used for the tiny shapes, where one or a few
  outputs would make a relative-error statistic noisy.
- ``wide_range``: ``random`` with each row of a and each column of b scaled by 2^e, e drawn
  from {-20, 0, 20}. float32 and TF32 handle it; float16 operands overflow or underflow.
"""

from __future__ import annotations

import torch


def _uniform(shape: tuple[int, int], gen: torch.Generator, device: torch.device) -> torch.Tensor:
    return torch.rand(shape, generator=gen, device=device, dtype=torch.float32) * 2 - 1


def _pow2(e: torch.Tensor) -> torch.Tensor:
    """2.0**e as float32, built from the exponent bits so it is exact on every device."""
    return ((e.to(torch.int32) + 127) << 23).view(torch.float32)


def _levels(shape: tuple[int, int], gen: torch.Generator, device: torch.device) -> torch.Tensor:
    """Scale factors 2^-20, 1 or 2^20, one per row or column."""
    idx = torch.randint(0, 3, shape, generator=gen, device=device)
    return _pow2((idx - 1) * 20)


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    m, n, k = params["m"], params["n"], params["k"]
    a = _uniform((m, k), gen, device)
    b = _uniform((k, n), gen, device)
    if kind == "random":
        pass
    elif kind == "exact":
        a = a.to(torch.bfloat16).to(torch.float32)
        b = b.to(torch.bfloat16).to(torch.float32)
    elif kind == "wide_range":
        a = a * _levels((m, 1), gen, device)
        b = b * _levels((1, n), gen, device)
    else:
        raise ValueError(f"unknown kind {kind!r} (expected random, exact or wide_range)")
    return {"a": a.contiguous(), "b": b.contiguous()}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    # float64 products and sums: exact to ~1e-16 relative, far below any tolerance. On a GPU this
    # is cuBLAS DGEMM (no TF32 path exists for float64), a few ms at 4096^3.
    return {"c": inputs["a"].double() @ inputs["b"].double()}


def error_scale(
    inputs: dict[str, torch.Tensor], params: dict[str, int], expected: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor]:
    # (|a| @ |b|)_ij = sum_l |a_il| |b_lj|: the natural scale of the rounding error of c_ij for
    # any method that rounds operands or partial sums (see problem.toml).
    return {"c": inputs["a"].double().abs() @ inputs["b"].double().abs()}


def baseline(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, m: int, n: int, k: int) -> None:
    """cuBLAS with TF32 allowed (the precision learners may use), restoring the global setting."""
    prev = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision("high")
    try:
        torch.matmul(a, b, out=c)
    finally:
        torch.set_float32_matmul_precision(prev)
