# expect: wrong_answer
# Bug: no key mask. Every sequence attends all L cache positions, as if the cache were full;
# the positions at or past lens[i] hold stale entries (another request's keys and values), and
# they take part of the weight. Only sequences at the full length come out right. The fix:
# attn_mask = positions < lens[i].
import torch
import torch.nn.functional as F


def solve(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, lens: torch.Tensor, o: torch.Tensor, b: int, hq: int, hkv: int, L: int, d: int):
    grouped = q.view(b, hkv, hq // hkv, d)
    out = F.scaled_dot_product_attention(grouped, k, v)
    o.copy_(out.view(b, hq, d))
