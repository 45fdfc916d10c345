"""Top-k of each row: seeded float32 inputs, the exact reference (a stable descending sort cut
at k, so that of equal values the lower index comes first), and torch.topk as the baseline.

Trusted code, run by the referee (docs/problem-format.md). Kinds of input (float32, no NaN,
no -0.0: the tie rule compares values, and -0.0 == 0.0 would be a tie a bit-pattern sort
breaks the other way):
- ``random``: N(0, 1). Ties are rare but happen (2^23 values per unit around 1).
- ``ties``: integers 0..7: every row holds its maximum thousands of times, so the answer is
  k copies of 7 at the k lowest indices where 7 occurs, and every tie is decided by the rule.
- ``ascending``: each row sorted ascending: the k largest sit in the last columns, in the last
  (partial) chunk a kernel reads, in the reverse of the order they must come out in.
- ``sparse``: -inf everywhere but ~k/2 random columns of N(0, 1): fewer finite values than k,
  so the answer ends with -inf values at the lowest indices holding -inf, which a kernel that
  pads its lanes with -inf must still tell apart from its padding.
- ``negative``: -U[1, 2): a kernel whose running "best" starts at 0 never moves.
- ``close``: 1 + 10^-3·N(0, 1): distinct in float32, but bfloat16 (spacing 2^-7 at 1) and
  float16 (2^-10) merge most of them, so a kernel that compares shortened values picks and
  orders the wrong ones.
"""

from __future__ import annotations

import torch

_KINDS = ("random", "ties", "ascending", "sparse", "negative", "close")


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    b, v, k = params["b"], params["v"], params["k"]
    shape = (b, v)
    if kind == "random":
        x = torch.randn(shape, generator=gen, device=device)
    elif kind == "ties":
        x = torch.randint(0, 8, shape, generator=gen, device=device).float()
    elif kind == "ascending":
        x = torch.sort(torch.randn(shape, generator=gen, device=device), dim=1).values
    elif kind == "sparse":
        x = torch.full(shape, float("-inf"), device=device)
        n = max(1, k // 2)
        cols = torch.randint(0, v, (b, n), generator=gen, device=device)
        x.scatter_(1, cols, torch.randn((b, n), generator=gen, device=device))
    elif kind == "negative":
        x = -1.0 - torch.rand(shape, generator=gen, device=device)
    elif kind == "close":
        x = 1.0 + 1e-3 * torch.randn(shape, generator=gen, device=device)
    else:
        raise ValueError(f"unknown kind {kind!r} (expected one of {_KINDS})")
    x = torch.where(x == 0.0, torch.zeros_like(x), x)  # -0.0 -> +0.0 (N(0,1) can draw it)
    return {"x": x.contiguous()}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """The first k of a stable descending sort: equal values keep their input (index) order."""
    x, k = inputs["x"], params["k"]
    order = torch.sort(x, dim=1, descending=True, stable=True).indices[:, :k]
    return {"vals": x.gather(1, order), "idx": order.to(torch.int32)}


def baseline(
    x: torch.Tensor, vals: torch.Tensor, idx: torch.Tensor, b: int, v: int, k: int
) -> None:
    """torch.topk (sorted), copied into the outputs. Its tie order is not promised: it is the
    speed to compare with, never the reference."""
    top = torch.topk(x, k, dim=1, largest=True, sorted=True)
    vals.copy_(top.values)
    idx.copy_(top.indices)
