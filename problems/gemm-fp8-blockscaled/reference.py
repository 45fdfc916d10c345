"""fp8 GEMM with DeepSeek-V3-style block scales: seeded e4m3 inputs quantised from real-valued
matrices, their float32 scales, the float64 reference, its error scale, a sampled reference for
timed calls, and the cuBLAS blockwise-scaled baseline.

Trusted code, run by the referee (see docs/problem-format.md). With kb = ceil(k / 128):
a is m x k e4m3 with one scale per row and 128-column block (sa: m x kb, "1 x 128" blocks);
b is n x k e4m3 with one scale per 128 x 128 block (sb: ceil(n / 128) x kb); and

    c[i, j] = sum over blocks t of  sa[i, t] * sb[j // 128, t] * sum_{l in block t} a[i, l] b[j, l].

Kinds of input:

- ``random``: real matrices with entries ~ N(0, 1), each 1 x 128 block of a and 128 x 128 block
  of b multiplied by 2^u (u uniform in [-6, 6]: magnitudes vary from block to block as
  activations and weights do), then quantised the way a model is: scale = amax(block) / 448
  (448 is e4m3's largest value), q = round_to_e4m3(x / scale). The reference uses q and the
  scales as given: it is exact for the quantised inputs, whatever the quantisation lost.
- ``exact``: a and b in {-1, 0, 1}, scales exact powers of two, one per row of a and one per
  row block of b: every output is a small integer times a power of two, exact in bf16 (tiny
  shapes: indexing alone; sums of +-1 terms stay within 256 for k <= 1000).
"""

from __future__ import annotations

import torch

BLOCK = 128
E4M3_MAX = 448.0
_SAMPLED_ROWS = 32


def _pow2(e: torch.Tensor) -> torch.Tensor:
    """2.0**e as float32 for integer e, built from the exponent bits (exact on every device)."""
    return ((e.to(torch.int32) + 127) << 23).view(torch.float32)


def _blocks(x: int) -> int:
    return (x + BLOCK - 1) // BLOCK


def _quantise(x: torch.Tensor, rows_per_block: int) -> tuple[torch.Tensor, torch.Tensor]:
    """e4m3 values and float32 scales of x (r x k) for blocks of rows_per_block x 128."""
    r, k = x.shape
    rb, kb = (r + rows_per_block - 1) // rows_per_block, _blocks(k)
    pad = torch.zeros(rb * rows_per_block, kb * BLOCK, device=x.device)
    pad[:r, :k] = x
    blocks = pad.reshape(rb, rows_per_block, kb, BLOCK)
    amax = blocks.abs().amax(dim=(1, 3)).clamp_min(1e-30)  # rb x kb
    scale = (amax / E4M3_MAX).float()
    q = (blocks / scale[:, None, :, None]).clamp(-E4M3_MAX, E4M3_MAX)
    q = q.reshape(rb * rows_per_block, kb * BLOCK)[:r, :k].to(torch.float8_e4m3fn)
    return q.contiguous(), scale.contiguous()


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    m, n, k = params["m"], params["n"], params["k"]
    kb, nb = _blocks(k), _blocks(n)
    if kind == "random":
        xa = torch.randn(m, k, generator=gen, device=device)
        xb = torch.randn(n, k, generator=gen, device=device)
        ua = torch.exp2(torch.rand(m, kb, generator=gen, device=device) * 12 - 6)
        ub = torch.exp2(torch.rand(nb, kb, generator=gen, device=device) * 12 - 6)
        xa = xa * ua.repeat_interleave(BLOCK, dim=1)[:, :k]
        xb = xb * ub.repeat_interleave(BLOCK, dim=0).repeat_interleave(BLOCK, dim=1)[:n, :k]
        a, sa = _quantise(xa, 1)
        b, sb = _quantise(xb, BLOCK)
    elif kind == "exact":
        a = torch.randint(-1, 2, (m, k), generator=gen, device=device).float()
        b = torch.randint(-1, 2, (n, k), generator=gen, device=device).float()
        a, b = a.to(torch.float8_e4m3fn), b.to(torch.float8_e4m3fn)
        # One power of two per row of a and per row block of b, the same for every k block: the
        # sums of +-1 terms then stay small integers times one power of two.
        sa = _pow2(torch.randint(-4, 5, (m, 1), generator=gen, device=device)).expand(m, kb)
        sb = _pow2(torch.randint(-4, 5, (nb, 1), generator=gen, device=device)).expand(nb, kb)
        sa, sb = sa.contiguous(), sb.contiguous()
    else:
        raise ValueError(f"unknown kind {kind!r} (expected random or exact)")
    return {"a": a, "b": b, "sa": sa, "sb": sb}


def _dequantised(q: torch.Tensor, scale: torch.Tensor, rows_per_block: int) -> torch.Tensor:
    """q * its block's scale, in float64 (exact: 4 significant bits times a float32)."""
    r, k = q.shape
    s = scale.double().repeat_interleave(rows_per_block, dim=0)[:r]
    return q.double() * s.repeat_interleave(BLOCK, dim=1)[:, :k]


def _product(
    inputs: dict[str, torch.Tensor], rows: torch.Tensor | None
) -> tuple[torch.Tensor, torch.Tensor]:
    a, sa = inputs["a"], inputs["sa"]
    if rows is not None:
        a, sa = a[rows], sa[rows]
    da = _dequantised(a, sa, 1)
    db = _dequantised(inputs["b"], inputs["sb"], BLOCK)
    # Scaling every element by its block's scale before one float64 product is the same sum as
    # scaling each block's partial sum: float64 holds every term exactly.
    return da @ db.T, da.abs() @ db.abs().T


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    return {"c": _product(inputs, None)[0]}


def error_scale(
    inputs: dict[str, torch.Tensor], params: dict[str, int], expected: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor]:
    # sum_l |sa a_il| |sb b_jl|: the size of the terms summed into c_ij (problem.toml).
    return {"c": _product(inputs, None)[1]}


def reference_sample(
    inputs: dict[str, torch.Tensor], params: dict[str, int], gen: torch.Generator
) -> dict[str, tuple[torch.Tensor, torch.Tensor, torch.Tensor]]:
    """Whole rows of c at _SAMPLED_ROWS rows picked with ``gen``, with their error scale, for
    timed calls (judge/timing/sampled.py)."""
    m, n = params["m"], params["n"]
    rows = torch.randint(0, m, (_SAMPLED_ROWS,), generator=gen, device=inputs["a"].device)
    vals, scale = _product(inputs, rows)
    idx = (rows[:, None] * n + torch.arange(n, device=rows.device)[None, :]).reshape(-1)
    return {"c": (idx, vals.reshape(-1), scale.reshape(-1))}


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
    """cuBLASLt's blockwise-scaled fp8 GEMM through ``torch._scaled_mm`` (the DeepSeek recipe,
    1 x 128 scales for a and 128 x 128 for b; Hopper, CUDA >= 12.9), written into c.

    The scales go in the layouts cuBLASLt reads: a's outer-dimension-major (m contiguous), b's
    as a (round_up(kb, 4) x nb) view of the (nb x kb) block scales, k-blocks padded to 4.
    Benchmark sizes only (k and n multiples of 128)."""
    kb, nb = sa.shape[1], sb.shape[0]
    scale_a = sa.t().contiguous().t()
    l4 = (kb + 3) // 4 * 4
    padded = torch.zeros(nb, l4, dtype=torch.float32, device=sb.device)
    padded[:, :kb] = sb
    torch._scaled_mm(a, b.t(), scale_a, padded.t(), out_dtype=torch.bfloat16, out=c)
