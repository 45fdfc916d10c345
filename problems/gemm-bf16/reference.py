"""bf16 GEMM: seeded bf16 inputs, the float64 reference, its error scale, a sampled reference for
timed calls, and the cuBLAS baseline.

Trusted code, run by the referee (see docs/problem-format.md). Kinds of input (all bfloat16):

- ``random``: entries uniform in [-1, 1), rounded to bf16. Zero mean, so the entries of c are
  sums that partly cancel; the error of a method is judged against (|a| @ |b|) (error_scale).
- ``small_ints``: entries in {-1, 0, 1}. Every product and partial sum is an integer below 2^8
  in magnitude for the sizes used (k <= 1000, sums of +-1 terms stay near sqrt(k)), so c is exact
  in bf16 and every correct method returns it exactly: the tiny shapes test indexing alone.
- ``wide_range``: ``random`` with each row of a and each column of b scaled by 2^e, e drawn from
  {-20, 0, 20}: outputs from 2^-40 to 2^40. bf16 and float32 keep the exponent range; a float16
  accumulator or output overflows (max 65504) or flushes to zero.

The reference is computed in float64 from the bf16 inputs themselves, so the only difference
between a correct kernel and it is the kernel's own arithmetic (problem.toml).
"""

from __future__ import annotations

import torch

# Rows of c that reference_sample computes for a timed call: a kernel that skips a share f of
# the rows on timed calls survives one with probability (1 - f)^32.
_SAMPLED_ROWS = 32


def _pow2(e: torch.Tensor) -> torch.Tensor:
    """2.0**e as float32, built from the exponent bits so it is exact on every device."""
    return ((e.to(torch.int32) + 127) << 23).view(torch.float32)


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    m, n, k = params["m"], params["n"], params["k"]

    def uniform(shape: tuple[int, int]) -> torch.Tensor:
        return torch.rand(shape, generator=gen, device=device) * 2 - 1

    if kind == "random":
        a, b = uniform((m, k)), uniform((k, n))
    elif kind == "small_ints":
        a = torch.randint(-1, 2, (m, k), generator=gen, device=device).float()
        b = torch.randint(-1, 2, (k, n), generator=gen, device=device).float()
    elif kind == "wide_range":
        rows = _pow2((torch.randint(0, 3, (m, 1), generator=gen, device=device) - 1) * 20)
        cols = _pow2((torch.randint(0, 3, (1, n), generator=gen, device=device) - 1) * 20)
        a, b = uniform((m, k)) * rows, uniform((k, n)) * cols
    else:
        raise ValueError(f"unknown kind {kind!r} (expected random, small_ints or wide_range)")
    return {"a": a.to(torch.bfloat16), "b": b.to(torch.bfloat16)}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    # float64 products and sums of the bf16 values: exact to ~1e-16, far below any tolerance.
    return {"c": inputs["a"].double() @ inputs["b"].double()}


def error_scale(
    inputs: dict[str, torch.Tensor], params: dict[str, int], expected: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor]:
    # (|a| @ |b|)_ij = sum_l |a_il| |b_lj|: the size of the terms summed into c_ij, which bounds
    # the rounding error of any method (problem.toml); |c_ij| itself can cancel to ~0.
    return {"c": inputs["a"].double().abs() @ inputs["b"].double().abs()}


def reference_sample(
    inputs: dict[str, torch.Tensor], params: dict[str, int], gen: torch.Generator
) -> dict[str, tuple[torch.Tensor, torch.Tensor, torch.Tensor]]:
    """Whole rows of c at _SAMPLED_ROWS rows picked with ``gen``, with their error scale, for
    timed calls: 32 * k * n multiply-adds instead of m * k * n (judge/timing/sampled.py)."""
    m, n = params["m"], params["n"]
    a, b = inputs["a"], inputs["b"]
    rows = torch.randint(0, m, (_SAMPLED_ROWS,), generator=gen, device=a.device)
    ad, bd = a[rows].double(), b.double()
    cols = torch.arange(n, device=a.device)
    idx = (rows[:, None] * n + cols[None, :]).reshape(-1)
    return {"c": (idx, (ad @ bd).reshape(-1), (ad.abs() @ bd.abs()).reshape(-1))}


def baseline(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, m: int, n: int, k: int) -> None:
    """cuBLAS bf16 GEMM (fp32 accumulation, bf16 output), written into c."""
    torch.matmul(a, b, out=c)
