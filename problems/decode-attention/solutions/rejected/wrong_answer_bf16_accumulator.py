# expect: wrong_answer
# Bug: the running output is kept in bf16 between key blocks (to halve the registers it takes):
# every block rescales and adds to it, and rounds it to 2^-9 again. Over L / 64 blocks the
# rounding errors add up, ~1-2% of |o| at L = 4096: twice the tolerance or more. The scores,
# the softmax state and each block's product are float32; only the accumulator is short.
# Keep it in float32 and round once, at the store.
import torch
import triton
import triton.language as tl


@triton.jit
def decode_kernel(q_ptr, k_ptr, v_ptr, lens_ptr, o_ptr, hq, hkv, L, qk_scale, D: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)  # sequence * hkv + kv head
    seq = pid // hkv
    group = hq // hkv
    n = tl.load(lens_ptr + seq)
    heads = tl.arange(0, BLOCK_H)
    live = heads < group
    rows = seq * hq + (pid % hkv) * group + heads
    dd = tl.arange(0, D)
    q = tl.load(q_ptr + rows.to(tl.int64)[:, None] * D + dd[None, :], mask=live[:, None], other=0.0)
    base = pid.to(tl.int64) * L * D
    m = tl.full([BLOCK_H], float("-inf"), dtype=tl.float32)
    l = tl.zeros([BLOCK_H], dtype=tl.float32)
    acc = tl.zeros([BLOCK_H, D], dtype=tl.float32)
    for s0 in range(0, n, BLOCK_N):
        pos = s0 + tl.arange(0, BLOCK_N)
        ok = pos < n
        offs = base + pos[:, None] * D + dd[None, :]
        kt = tl.load(k_ptr + offs, mask=ok[:, None], other=0.0)
        s = tl.where(ok[None, :], tl.dot(q, tl.trans(kt)) * qk_scale, float("-inf"))
        m_new = tl.maximum(m, tl.max(s, axis=1))
        alpha = tl.exp2(m - m_new)
        p = tl.exp2(s - m_new[:, None])
        vt = tl.load(v_ptr + offs, mask=ok[:, None], other=0.0)
        l = l * alpha + tl.sum(p, axis=1)
        acc = (acc * alpha[:, None] + tl.dot(p.to(tl.bfloat16), vt)).to(tl.bfloat16).to(tl.float32)
        m = m_new
    out = acc / l[:, None]
    tl.store(o_ptr + rows.to(tl.int64)[:, None] * D + dd[None, :], out.to(tl.bfloat16), mask=live[:, None])


def solve(q, k, v, lens, o, b: int, hq: int, hkv: int, L: int, d: int):
    decode_kernel[(b * hkv,)](q, k, v, lens, o, hq, hkv, L, d**-0.5 * 1.4426950408889634, D=d, BLOCK_H=16, BLOCK_N=64)
