"""Attention forward: seeded fp16 inputs, a chunked float64 reference, and the SDPA baseline.

Trusted code, run by the referee (see docs/problem-format.md). Kinds of input (all float16):

- ``random``: q and k have entries ~ N(0, 2.5), so the scores q.k/sqrt(d) have standard
  deviation 2.5 for every d: attention is far from uniform (at s = 4096 a query puts most of
  its weight on ~10 keys), yet not one-hot. v ~ N(0, 1), so outputs are O(0.2-1), not near 0.
- ``large_scores``: q ~ N(0, 64), k ~ N(0, 25): scores with standard deviation 40, so most rows
  have a score above 88.7, where exp() overflows float32. A kernel that skips the running-max
  subtraction of the online softmax produces inf/NaN here (and only here).
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

# Budget for one float64 score block in the reference: the full [b*h, s, s] score tensor at the
# benchmark size (16*16 heads, s = 4096) would be 34 GB in float64.
_CHUNK_BYTES = 256 * 2**20


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    shape = (params["b"], params["h"], params["s"], params["d"])
    if kind == "random":
        q_std, k_std = math.sqrt(2.5), math.sqrt(2.5)
    elif kind == "large_scores":
        q_std, k_std = 8.0, 5.0
    else:
        raise ValueError(f"unknown kind {kind!r} (expected random or large_scores)")

    def normal(std: float) -> torch.Tensor:
        x = torch.randn(shape, generator=gen, device=device, dtype=torch.float32)
        return (x * std).to(torch.float16)

    return {"q": normal(q_std), "k": normal(k_std), "v": normal(1.0)}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """softmax(q k^T / sqrt(d)) v from the fp16 inputs, computed in float64, chunked.

    float64 (not float32 through scaled_dot_product_attention) so the reference does not depend
    on which SDPA backend or TF32 setting is active; chunking keeps it memory-light: heads are
    processed a few at a time (and, for very long s, query rows a block at a time) so one
    float64 score block stays under _CHUNK_BYTES. At b = h = 16, s = 4096 this is one head per
    chunk, ~256 batched DGEMM + softmax steps: about a tenth of a second on an H100.
    """
    b, h, s, d = params["b"], params["h"], params["s"], params["d"]
    q = inputs["q"].reshape(b * h, s, d)
    k = inputs["k"].reshape(b * h, s, d)
    v = inputs["v"].reshape(b * h, s, d)
    out = torch.empty((b * h, s, d), dtype=torch.float32, device=q.device)
    scale = 1.0 / math.sqrt(d)
    per_head = s * s * 8
    heads = max(1, _CHUNK_BYTES // per_head)
    rows = s if per_head <= _CHUNK_BYTES else max(1, _CHUNK_BYTES // (s * 8))
    for h0 in range(0, b * h, heads):
        h1 = min(b * h, h0 + heads)
        kd = k[h0:h1].double()
        vd = v[h0:h1].double()
        for r0 in range(0, s, rows):
            r1 = min(s, r0 + rows)
            scores = torch.matmul(q[h0:h1, r0:r1].double(), kd.transpose(1, 2)) * scale
            p = torch.softmax(scores, dim=-1)
            del scores
            out[h0:h1, r0:r1] = torch.matmul(p, vd).float()
            del p
    return {"o": out.reshape(b, h, s, d)}


# Query rows whose outputs reference_sample computes for a timed call: a kernel that skips or
# botches a share f of the rows on timed calls survives one with probability (1 - f)^32.
_SAMPLED_ROWS = 32


def reference_sample(
    inputs: dict[str, torch.Tensor], params: dict[str, int], gen: torch.Generator
) -> dict[str, tuple[torch.Tensor, torch.Tensor]]:
    """The reference at _SAMPLED_ROWS query rows picked with ``gen``, in float64, for timed calls.

    A row of o needs its head's whole k and v but nothing else: 32 rows cost 32·s·d work instead
    of the full reference's b·h·s²·d (judge/timing/sampled.py says how the referee uses it)."""
    b, h, s, d = params["b"], params["h"], params["s"], params["d"]
    q = inputs["q"].reshape(b * h, s, d)
    heads = torch.randint(0, b * h, (_SAMPLED_ROWS,), generator=gen, device=q.device)
    rows = torch.randint(0, s, (_SAMPLED_ROWS,), generator=gen, device=q.device)
    qd = q[heads, rows].double()  # [r, d]
    kd = inputs["k"].reshape(b * h, s, d)[heads].double()  # [r, s, d]
    vd = inputs["v"].reshape(b * h, s, d)[heads].double()
    scores = torch.einsum("rd,rsd->rs", qd, kd) / math.sqrt(d)
    out = torch.einsum("rs,rsd->rd", torch.softmax(scores, dim=-1), vd)  # [r, d]
    cols = torch.arange(d, device=q.device)
    idx = ((heads * s + rows) * d)[:, None] + cols[None, :]
    return {"o": (idx.reshape(-1), out.reshape(-1))}


def baseline(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    o: torch.Tensor,
    b: int,
    h: int,
    s: int,
    d: int,
) -> None:
    """PyTorch's fused attention (FlashAttention-2 kernels for fp16 on an H100)."""
    o.copy_(F.scaled_dot_product_attention(q, k, v))
