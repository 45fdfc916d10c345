"""Top-p sampling on the framework track: a stable descending sort (equal probabilities keep
their index order), cumulative sums (exact: every probability is a multiple of 2^-24), the
nucleus' end as the first sum >= p, the draw as the first sum > u * mass, capped at the
nucleus' end, and the token read back through the sort's permutation."""

import torch


def solve(probs: torch.Tensor, top_p: torch.Tensor, u: torch.Tensor, token: torch.Tensor, batch: int, vocab: int):
    sorted_p, order = torch.sort(probs, dim=1, descending=True, stable=True)
    c = torch.cumsum(sorted_p, dim=1)
    end = torch.searchsorted(c, top_p[:, None].contiguous(), right=False).clamp(max=vocab - 1)
    t = u[:, None] * torch.gather(c, 1, end)
    k = torch.minimum(torch.searchsorted(c, t.contiguous(), right=True), end)
    token.copy_(torch.gather(order, 1, k).squeeze(1))
