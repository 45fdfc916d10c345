"""RoPE in place at memory speed: one program per token rotates every head of q and of k.

The cos and sin of a position are shared by all heads of q and k at that position: a
program loads them once ([HALF] floats each) and applies them to a [BLOCK_H, HALF] tile of
heads, for q and then k, so the tables are read from memory b·s times instead of 2·b·s·h
times, and each program still moves 4 tiles of h·d/2 bf16 values (the benchmark: 32 KB).
q and k are read with evict_first (each element once); cos and sin with evict_last, because
the same position comes back for every batch. Heads beyond BLOCK_H (h > 64) loop.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _rotate_heads(x_ptr, token, h, half, c, sn, BLOCK_H: tl.constexpr, HALF: tl.constexpr):
    i = tl.arange(0, HALF)
    for h0 in range(0, h, BLOCK_H):
        heads = h0 + tl.arange(0, BLOCK_H)
        mask = (heads[:, None] < h) & (i[None, :] < half)
        offs = (token * h + heads[:, None]) * (2 * half) + i[None, :]
        x1 = tl.load(x_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first").to(tl.float32)
        x2 = tl.load(x_ptr + offs + half, mask=mask, other=0.0, eviction_policy="evict_first").to(tl.float32)
        tl.store(x_ptr + offs, (x1 * c - x2 * sn).to(tl.bfloat16), mask=mask)
        tl.store(x_ptr + offs + half, (x2 * c + x1 * sn).to(tl.bfloat16), mask=mask)


@triton.jit
def rope_token(q_ptr, k_ptr, cos_ptr, sin_ptr, s, h, half, BLOCK_H: tl.constexpr, HALF: tl.constexpr):
    token = tl.program_id(0).to(tl.int64)  # batch * s + position
    pos = token % s
    i = tl.arange(0, HALF)
    cmask = i < half
    c = tl.load(cos_ptr + pos * half + i, mask=cmask, other=0.0, eviction_policy="evict_last")[None, :]
    sn = tl.load(sin_ptr + pos * half + i, mask=cmask, other=0.0, eviction_policy="evict_last")[None, :]
    _rotate_heads(q_ptr, token, h, half, c, sn, BLOCK_H, HALF)
    _rotate_heads(k_ptr, token, h, half, c, sn, BLOCK_H, HALF)


def solve(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, b: int, s: int, h: int, d: int):
    half = d // 2
    HALF = triton.next_power_of_2(half)
    BLOCK_H = max(1, min(triton.next_power_of_2(h), 4096 // HALF))
    tile = BLOCK_H * HALF
    num_warps = 2 if tile <= 512 else 4 if tile <= 2048 else 8
    rope_token[(b * s,)](q, k, cos, sin, s, h, half, BLOCK_H=BLOCK_H, HALF=HALF, num_warps=num_warps)
