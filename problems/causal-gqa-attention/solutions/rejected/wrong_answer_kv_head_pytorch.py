# expect: wrong_answer
# Bug: the kv heads are widened to hq heads with k.repeat(1, group, 1, 1), which tiles them
# (kv heads 0, 1, 0, 1, ...): query head h then reads kv head h % hkv instead of h // group.
# With one kv head (multi-query) or group = 1 that is the same thing, so those cases pass;
# hq = 4, hkv = 2 attends the wrong keys. The fix: repeat_interleave(group, dim=1), which
# puts each kv head's copies next to each other (or enable_gqa=True).
import torch
import torch.nn.functional as F


def solve(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, o: torch.Tensor, b: int, hq: int, hkv: int, s: int, d: int):
    group = hq // hkv
    k = k.repeat(1, group, 1, 1)
    v = v.repeat(1, group, 1, 1)
    o.copy_(F.scaled_dot_product_attention(q, k, v, is_causal=True))
