"""Decode attention on the framework track: scaled_dot_product_attention with a key mask from
lens (position < lens[i]). The query heads of a KV group attend the same keys, so they go in as
the group's queries against their KV head ([b, hkv, group, d]). It reads the whole cache, L
positions per sequence, where a ragged kernel reads lens[i]."""

import torch
import torch.nn.functional as F


def solve(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, lens: torch.Tensor, o: torch.Tensor, b: int, hq: int, hkv: int, L: int, d: int):
    keep = torch.arange(L, device=q.device)[None, :] < lens[:, None]  # [b, L]
    grouped = q.view(b, hkv, hq // hkv, d)
    out = F.scaled_dot_product_attention(grouped, k, v, attn_mask=keep[:, None, None, :])
    o.copy_(out.view(b, hq, d))
