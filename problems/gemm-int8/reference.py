"""int8 GEMM with per-row and per-column scales: seeded int8 inputs and float32 scales, the
float64 reference, a sampled reference for timed calls, and a torch baseline.

Trusted code, run by the referee (see docs/problem-format.md). c[i, j] = sa[i] * sb[j] *
sum_l a[i, l] * b[j, l], with b stored n x k (each row of b is one output column's weights, the
layout of a linear layer's weight matrix and the one int8 tensor cores read). Kinds of input:

- ``random``: a and b uniform over all 256 int8 values, sa and sb = 2^u with u uniform in
  [-9, -5] (positive, mantissas and exponents that vary). The int32 sums are exact in every
  correct method; only the float32 scaling and the final bf16 rounding differ (problem.toml).
- ``exact``: a and b in {-1, 0, 1} and scales exact powers of two: every output is a small
  integer times a power of two, exact in bf16, so the tiny shapes test indexing alone (a sum of
  +-1 terms stays within 256 for the sizes used: k <= 1000, ~sqrt(k) typical).
- ``extreme``: a and b only -128 or 127, so every product is +-16256 or 16384 and the sums
  reach 10^6 and more: an int16 or float16 accumulator overflows, and int8 "-128" handled as
  unsigned (128 ... 255) is wrong in every output.
"""

from __future__ import annotations

import torch

_SAMPLED_ROWS = 32


def _pow2(e: torch.Tensor) -> torch.Tensor:
    """2.0**e as float32 for integer e, built from the exponent bits (exact on every device)."""
    return ((e.to(torch.int32) + 127) << 23).view(torch.float32)


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    m, n, k = params["m"], params["n"], params["k"]
    if kind in ("random", "extreme"):
        a = torch.randint(-128, 128, (m, k), generator=gen, device=device, dtype=torch.int32)
        b = torch.randint(-128, 128, (n, k), generator=gen, device=device, dtype=torch.int32)
        if kind == "extreme":
            a, b = torch.where(a < 0, -128, 127), torch.where(b < 0, -128, 127)
        u = torch.rand(m + n, generator=gen, device=device) * 4 - 9
        scales = torch.exp2(u)
        sa, sb = scales[:m], scales[m:]
    elif kind == "exact":
        a = torch.randint(-1, 2, (m, k), generator=gen, device=device, dtype=torch.int32)
        b = torch.randint(-1, 2, (n, k), generator=gen, device=device, dtype=torch.int32)
        e = torch.randint(-9, -4, (m + n,), generator=gen, device=device)
        sa, sb = _pow2(e[:m]), _pow2(e[m:])
    else:
        raise ValueError(f"unknown kind {kind!r} (expected random, exact or extreme)")
    return {
        "a": a.to(torch.int8),
        "b": b.to(torch.int8),
        "sa": sa.float().contiguous(),
        "sb": sb.float().contiguous(),
    }


def _scaled(a: torch.Tensor, b: torch.Tensor, sa: torch.Tensor, sb: torch.Tensor) -> torch.Tensor:
    # float64 holds every int32 sum exactly (|sum| <= 8192 * 2^14 = 2^27), and the two scalings
    # to ~1e-16: the reference is exact for all purposes.
    return (a.double() @ b.double().T) * sa.double()[:, None] * sb.double()[None, :]


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    return {"c": _scaled(inputs["a"], inputs["b"], inputs["sa"], inputs["sb"])}


def reference_sample(
    inputs: dict[str, torch.Tensor], params: dict[str, int], gen: torch.Generator
) -> dict[str, tuple[torch.Tensor, torch.Tensor]]:
    """Whole rows of c at _SAMPLED_ROWS rows picked with ``gen``, for timed calls: 32 * n * k
    multiply-adds instead of m * n * k (judge/timing/sampled.py)."""
    m, n = params["m"], params["n"]
    a = inputs["a"]
    rows = torch.randint(0, m, (_SAMPLED_ROWS,), generator=gen, device=a.device)
    vals = _scaled(a[rows], inputs["b"], inputs["sa"][rows], inputs["sb"])
    idx = (rows[:, None] * n + torch.arange(n, device=a.device)[None, :]).reshape(-1)
    return {"c": (idx, vals.reshape(-1))}


def baseline(
    a: torch.Tensor,
    b: torch.Tensor,
    sa: torch.Tensor,
    sb: torch.Tensor,
    c: torch.Tensor,
    m: int,
    n: int,
    k: int,
) -> None:
    """cuBLASLt's int8 GEMM (``torch._int_mm``: int32 accumulation, b as stored, column-major
    k x n) and the scaling in float32 by torch ops, rounded to bf16 into c."""
    acc = torch._int_mm(a, b.t())
    c.copy_(acc.float().mul_(sa[:, None]).mul_(sb[None, :]))
