"""Top-p (nucleus) sampling with given draws: seeded probability rows on a 2^-24 grid, per-row
p and uniform draws, the exact reference and a torch baseline.

Every probability is a multiple of 2^-24 and each row sums to exactly 1, so every partial sum
of a row, in any order, is exact in float32: the sampled token depends on no summation order.
Kinds:
- ``random``: softmax of N(0, 2^2) logits, quantized to the grid.
- ``peaked``: softmax of N(0, 8^2) logits: a few tokens hold nearly all the mass, most are 0.
- ``flat``: every token 1 / vocab (to the grid): ties everywhere, on two levels one unit
  apart.
- ``ties``: probabilities drawn from four levels: the nucleus ends inside a group of equal
  values, where the lower index comes first.
- ``boundary``: by quarters of the rows: p equal to a partial sum (the nucleus must end
  exactly there: >=, not >); p = 1 with the draw u equal to a partial sum (the sample is the
  next token: >, not >=); p one unit past a partial sum (the nucleus takes one more token, and
  holds far more than p; u puts the draw halfway into that last token, where a draw scaled
  by p instead of the nucleus' mass falls before it); p = 1 with u
  one unit below a partial sum (a search for "mass >= target" must not stop short of it).

In every kind but ``boundary`` p is uniform in [0.05, 1], and 1 in about 15% of the rows.
"""

from __future__ import annotations

import torch

UNIT = 2.0**-24  # the grid every probability lies on


def _quantize(p: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Rows of p (float64, summing to ~1) as integers of UNIT summing to exactly 2^24: floor,
    then one more unit to as many randomly chosen tokens as the floors left over."""
    w = torch.floor(p * 2**24).to(torch.int64)
    left = (2**24 - w.sum(dim=1)).tolist()
    for r, n in enumerate(left):
        pick = torch.randperm(w.shape[1], generator=gen, device=p.device)[: int(n)]
        w[r, pick] += 1
    return w


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """probs (float32, batch x vocab), top_p and u (float32, batch)."""
    batch, vocab = params["batch"], params["vocab"]
    f64 = torch.float64
    if kind in ("random", "boundary"):
        p = torch.softmax(
            2.0 * torch.randn(batch, vocab, generator=gen, device=device, dtype=f64), 1
        )
    elif kind == "peaked":
        p = torch.softmax(
            8.0 * torch.randn(batch, vocab, generator=gen, device=device, dtype=f64), 1
        )
    elif kind == "flat":
        p = torch.full((batch, vocab), 1.0 / vocab, dtype=f64, device=device)
    elif kind == "ties":
        levels = torch.tensor([1.0, 2.0, 3.0, 5.0], dtype=f64, device=device)
        p = levels[torch.randint(4, (batch, vocab), generator=gen, device=device)]
        p = p / p.sum(dim=1, keepdim=True)
    else:
        raise ValueError(f"unknown kind {kind!r}")
    w = _quantize(p, gen)
    top_p = 0.05 + 0.95 * torch.rand(batch, generator=gen, device=device, dtype=f64)
    top_p[torch.rand(batch, generator=gen, device=device) < 0.15] = 1.0
    u = torch.rand(batch, generator=gen, device=device, dtype=torch.float32)
    if kind == "boundary":
        order = torch.sort(w, dim=1, descending=True, stable=True).indices
        c = torch.cumsum(torch.gather(w, 1, order), dim=1)
        # a partial sum among the first 16: a nucleus of a few tokens, a draw among them
        at = torch.randint(min(vocab, 16), (batch,), generator=gen, device=device)
        exact = c[torch.arange(batch, device=device), at].to(f64) * UNIT
        which = torch.arange(batch, device=device) % 4
        # 0: p on a partial sum; 1: p = 1 and u on a partial sum (t = u exactly); 2: p one unit
        # past a partial sum, so the nucleus takes one more token and holds well over p; 3: p = 1
        # and u one unit below a partial sum (the draw's target in units is that sum itself)
        top_p = torch.where(which == 0, exact, torch.clamp(exact + UNIT, max=1.0))
        top_p = torch.where(which % 2 == 1, torch.ones_like(exact), top_p)
        on_sum = torch.where(exact < 1.0, exact, 0.0)
        below_sum = torch.clamp(exact - UNIT, min=0.0)
        # 2: u puts t halfway into the nucleus' last token, a draw that a t scaled by p (which
        # is one unit past the sum before that token) puts before it
        rows = torch.arange(batch, device=device)
        after = c[rows, torch.clamp(at + 1, max=vocab - 1)].to(f64) * UNIT
        halfway = torch.where(after > exact, (exact + after) / 2 / after, u.to(f64))
        u = torch.where(which == 2, halfway, u.to(f64))
        u = torch.where(which == 1, on_sum, torch.where(which == 3, below_sum, u))
        u = u.to(torch.float32)
    return {
        "probs": (w.to(f64) * UNIT).to(torch.float32),
        "top_p": top_p.to(torch.float32),
        "u": u,
    }


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """The sampled token of each row, by the rule in the statement, in exact integer units."""
    w = torch.round(inputs["probs"].to(torch.float64) * 2**24).to(torch.int64)
    order = torch.sort(w, dim=1, descending=True, stable=True).indices  # ties: lower index first
    c = torch.cumsum(torch.gather(w, 1, order), dim=1)  # c[k]: mass of the first k + 1 tokens
    p_units = inputs["top_p"].to(torch.float64) * 2**24
    K = torch.searchsorted(c.to(torch.float64), p_units[:, None], right=False)  # first c >= p
    K = K.clamp(max=w.shape[1] - 1)
    mass = torch.gather(c, 1, K).to(torch.float32) * UNIT  # exact: a multiple of 2^-24 <= 1
    t = (inputs["u"] * mass.squeeze(1)).to(torch.float64) * 2**24  # one float32 rounding
    k = torch.searchsorted(c.to(torch.float64), t[:, None], right=True)  # first c > t
    k = torch.minimum(k, K)
    return {"token": torch.gather(order, 1, k).squeeze(1).to(torch.int32)}


def baseline(
    probs: torch.Tensor,
    top_p: torch.Tensor,
    u: torch.Tensor,
    token: torch.Tensor,
    batch: int,
    vocab: int,
) -> None:
    """torch's way: a stable descending sort, cumulative sums, and two searches, written into
    token."""
    sorted_p, order = torch.sort(probs, dim=1, descending=True, stable=True)
    c = torch.cumsum(sorted_p, dim=1)
    K = torch.searchsorted(c, top_p[:, None].contiguous(), right=False).clamp(max=vocab - 1)
    t = u[:, None] * torch.gather(c, 1, K)
    k = torch.minimum(torch.searchsorted(c, t.contiguous(), right=True), K)
    token.copy_(torch.gather(order, 1, k).squeeze(1))
