"""Decode attention, the straightforward way: one program per (sequence, query head).

The program walks its KV head's first lens[i] positions in blocks of BLOCK_N keys with the
online softmax of flash attention, for a single query: scores are a row of dot products
(q · k for each key, elementwise products summed), a running maximum m and sum l rescale the
accumulator when the maximum grows. Everything is float32. Query heads that share a KV head
(hq / hkv of them) each read it again."""

import torch
import triton
import triton.language as tl


@triton.jit
def decode_kernel(q_ptr, k_ptr, v_ptr, lens_ptr, o_ptr, hq, hkv, L, sm_scale, D: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    seq = pid // hq
    kv_head = (pid % hq) // (hq // hkv)
    n = tl.load(lens_ptr + seq)
    dd = tl.arange(0, D)
    q = tl.load(q_ptr + pid.to(tl.int64) * D + dd).to(tl.float32)
    base = (seq * hkv + kv_head).to(tl.int64) * L * D
    m = float("-inf")
    l = 0.0
    acc = tl.zeros([D], dtype=tl.float32)
    for start in range(0, n, BLOCK_N):
        pos = start + tl.arange(0, BLOCK_N)
        ok = pos < n
        offs = base + pos[:, None] * D + dd[None, :]
        kt = tl.load(k_ptr + offs, mask=ok[:, None], other=0.0).to(tl.float32)
        s = tl.where(ok, tl.sum(kt * q[None, :], axis=1) * sm_scale, float("-inf"))
        m_new = tl.maximum(m, tl.max(s, axis=0))
        alpha = tl.exp(m - m_new)
        p = tl.exp(s - m_new)
        vt = tl.load(v_ptr + offs, mask=ok[:, None], other=0.0).to(tl.float32)
        l = l * alpha + tl.sum(p, axis=0)
        acc = acc * alpha + tl.sum(p[:, None] * vt, axis=0)
        m = m_new
    tl.store(o_ptr + pid.to(tl.int64) * D + dd, (acc / l).to(tl.bfloat16))


def solve(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, lens: torch.Tensor, o: torch.Tensor,
          b: int, hq: int, hkv: int, L: int, d: int):
    decode_kernel[(b * hq,)](q, k, v, lens, o, hq, hkv, L, d**-0.5, D=d, BLOCK_N=64)
