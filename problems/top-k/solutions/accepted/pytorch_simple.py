"""Top-k on the framework track: a stable descending sort of each row (equal values keep their
column order, the lower column first, as the tie rule asks), its first k columns, and their
values gathered. torch.topk would be faster but does not promise an order among ties."""

import torch


def solve(x: torch.Tensor, vals: torch.Tensor, idx: torch.Tensor, b: int, v: int, k: int):
    order = torch.sort(x, dim=1, descending=True, stable=True).indices[:, :k]
    vals.copy_(x.gather(1, order))
    idx.copy_(order)
