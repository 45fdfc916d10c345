"""Decode attention over a ragged KV cache: seeded bf16 inputs, a float64 reference and its
error scale, and an SDPA baseline.

Trusted code, run by the referee (docs/problem-format.md). One new token per sequence: query
head h of sequence i attends the first lens[i] positions of KV head h // (hq / hkv), scale
1/sqrt(d). Cache positions at or past lens[i] hold stale data that must not count: here k and v
~ N(0, 4²) there, so a kernel that reads past the length is visibly wrong.

Kinds of input (bf16; lens int32 in [1, L]):
- ``random``: q and k ~ N(0, 2.5), so the scores have standard deviation 2.5 for every d
  (attention far from uniform, not one-hot); v ~ N(0, 1). lens uniform in [1, L], with
  sequence 0 at the full L and, when b > 1, the last sequence at length 1.
- ``spread`` (benchmarks): as random, but lens a shuffled copy of ceil(L·(i+1)/b), i < b, so
  the total length is ≈ L·(b+1)/2 for every seed and problem.toml's roofline can count it.
- ``large_scores``: q ~ N(0, 64), k ~ N(0, 25): scores with standard deviation 40, above 88.7
  (where exp overflows float32) in most rows: only a kernel that subtracts the running max
  survives.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

_KINDS = ("random", "spread", "large_scores")


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    b, hq, hkv, n, d = (params[x] for x in ("b", "hq", "hkv", "L", "d"))
    if hq % hkv:
        raise ValueError(f"hq = {hq} is not a multiple of hkv = {hkv}")
    if kind not in _KINDS:
        raise ValueError(f"unknown kind {kind!r} (expected one of {_KINDS})")
    q_std, k_std = (8.0, 5.0) if kind == "large_scores" else (math.sqrt(2.5), math.sqrt(2.5))

    def normal(shape: tuple[int, ...], std: float) -> torch.Tensor:
        return torch.randn(shape, generator=gen, device=device) * std

    q = normal((b, hq, d), q_std).to(torch.bfloat16)
    if kind == "spread":
        i = torch.arange(1, b + 1, device=device, dtype=torch.int64)
        even = (n * i + b - 1) // b
        lens = even[torch.randperm(b, generator=gen, device=device)]
    else:
        lens = torch.randint(1, n + 1, (b,), generator=gen, device=device)
        lens[0] = n
        if b > 1:
            lens[-1] = 1
    # One sequence at a time: the benchmark's cache is 8.6 GB in bf16, and drawing it whole in
    # float32 (with the stale entries) would take several times that at once.
    k = torch.empty((b, hkv, n, d), dtype=torch.bfloat16, device=device)
    v = torch.empty_like(k)
    for seq, length in enumerate(lens.tolist()):
        for cache, std in ((k, k_std), (v, 1.0)):
            part = normal((hkv, n, d), std)
            part[:, length:] = normal((hkv, n - length, d), 4.0)  # stale entries
            cache[seq] = part
    return {"q": q, "k": k, "v": v, "lens": lens.to(torch.int32)}


def _attend(
    inputs: dict[str, torch.Tensor], params: dict[str, int]
) -> tuple[torch.Tensor, torch.Tensor]:
    """(o, softmax @ |v|) in float64, one sequence at a time (its [hkv, len, d] slice)."""
    q, k, v, lens = inputs["q"], inputs["k"], inputs["v"], inputs["lens"].tolist()
    b, hq, hkv, d = (params[x] for x in ("b", "hq", "hkv", "d"))
    group = hq // hkv
    o = torch.empty((b, hq, d), dtype=torch.float64, device=q.device)
    scale = torch.empty_like(o)
    for i, n in enumerate(lens):
        kd = k[i, :, :n].double()  # [hkv, n, d], shared by the group's query heads
        vd = v[i, :, :n].double()
        qd = q[i].double().reshape(hkv, group, d)
        p = torch.softmax(torch.einsum("hgd,hnd->hgn", qd, kd) / math.sqrt(d), dim=-1)
        o[i] = torch.einsum("hgn,hnd->hgd", p, vd).reshape(hq, d)
        scale[i] = torch.einsum("hgn,hnd->hgd", p, vd.abs()).reshape(hq, d)
    return o, scale


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """o = softmax(q K^T / sqrt(d)) V over each sequence's first lens[i] positions, float64."""
    return {"o": _attend(inputs, params)[0]}


def error_scale(
    inputs: dict[str, torch.Tensor], params: dict[str, int], expected: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor]:
    # softmax(...) @ |v|: the size of the terms averaged into o (>= |o|), which bounds the error
    # of rounding the weights P to bf16 for the P @ V product (problem.toml).
    return {"o": _attend(inputs, params)[1]}


def baseline(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    lens: torch.Tensor,
    o: torch.Tensor,
    b: int,
    hq: int,
    hkv: int,
    L: int,
    d: int,
) -> None:
    """SDPA with a key-padding mask built from lens. The query heads of a group attend the same
    keys, so they go in as the group's G "queries" against its KV head ([b, hkv, G, d]): grouped
    attention without enable_gqa, whose masked path can expand k and v to hq heads (34 GB for
    the benchmark). It reads the whole cache, L positions per sequence, where a ragged kernel
    reads lens[i]."""
    keep = torch.arange(L, device=q.device)[None, :] < lens[:, None]  # [b, L]
    grouped = q.view(b, hkv, hq // hkv, d)
    out = F.scaled_dot_product_attention(grouped, k, v, attn_mask=keep[:, None, None, :])
    o.copy_(out.view(b, hq, d))
