"""Block-scaled fp8 GEMM for Hopper (the DeepSeek-V3 recipe): persistent programs, tiles fed by
TMA, fp8 wgmma per 128-wide k block, partial sums promoted to a float32 accumulator with their
scales, and a pipelined pointer kernel for shapes TMA cannot describe.

fp8 wgmma reads both operands K-major from shared memory: a (m x k) is, and so is b (n x k).
The k step is the scale block, 128: one 128-byte swizzle row of e4m3 per tile row. For each k
block the tensor cores form the BLOCK_M x BLOCK_N partial sum (Triton's default on sm_90 lets
wgmma accumulate fp8 products in its reduced-precision "fast" mode within the block), which is
then multiplied by sa[rows, t] (a vector) and sb[cols // 128, t] (a vector: a 128-wide tile has
one value, a 256-wide one two) and added to the float32 accumulator. That promotion every 128
products is what keeps the error of a long k sum at float32 level.

Two accumulators (the partial and the running sum) live in registers, so the tile is 128 x 128
with 8 warps (64 + 64 fp32 registers per thread for them), not the 128 x 256 of gemm-bf16. The
scale loads are plain pointer loads (a few hundred bytes per tile and k block, from L2), so the
loop is software-pipelined by Triton (num_stages) rather than warp-specialised.

TMA path: k a multiple of 16 and n of 8 (16-byte aligned rows of a, b and c). Programs walk
the output tiles in groups of GROUP_M tile rows (L2 reuse); TMA zero-fills past the edges of a
and b, so the partial last k block needs no mask; c is written by a TMA store clipped at its
edges. Pointer path (any other shape): the same arithmetic with clamped rows and columns and a
k mask on every block.

On an H100 at 8192^3: see the editorial's table.
"""

import os

import torch
import triton
import triton.language as tl

from triton.tools.tensor_descriptor import TensorDescriptor

SCALE_K = 128
# 32 KB of a and b per stage, 4 stages + the 32 KB bf16 output tile: 160 KB of shared memory.
TMA_CFG = dict(BLOCK_M=128, BLOCK_N=128, num_stages=4, num_warps=8)
PTR_CFG = dict(BLOCK_M=128, BLOCK_N=128, num_stages=3, num_warps=8)
GROUP_M = 8


@triton.jit
def tile_coords(tile, num_pid_in_group, num_pid_m, GROUP_M: tl.constexpr):
    group_id = tile // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (tile % group_size_m)
    pid_n = (tile % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def block_scales(sa_ptr, sb_ptr, rm, rn, m, n, kb, t, SCALE_K: tl.constexpr):
    sa = tl.load(sa_ptr + rm * kb + t, mask=rm < m, other=0.0)
    sb = tl.load(sb_ptr + (rn // SCALE_K) * kb + t, mask=rn < n, other=0.0)
    return sa[:, None] * sb[None, :]


@triton.jit
def tma_gemm_kernel(a_desc, b_desc, c_desc, sa_ptr, sb_ptr, m, n, k, BLOCK_M: tl.constexpr,
                    BLOCK_N: tl.constexpr, SCALE_K: tl.constexpr, GROUP_M: tl.constexpr,
                    NUM_SMS: tl.constexpr):
    num_pid_m = tl.cdiv(m, BLOCK_M)
    num_pid_n = tl.cdiv(n, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    kb = tl.cdiv(k, SCALE_K)
    for tile in tl.range(tl.program_id(0), num_pid_m * num_pid_n, NUM_SMS):
        pid_m, pid_n = tile_coords(tile, num_pid_in_group, num_pid_m, GROUP_M)
        om = pid_m * BLOCK_M
        on = pid_n * BLOCK_N
        rm = om + tl.arange(0, BLOCK_M)
        rn = on + tl.arange(0, BLOCK_N)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for t in range(kb):
            a = a_desc.load([om, t * SCALE_K])  # zero past m and k
            b = b_desc.load([on, t * SCALE_K])  # zero past n and k
            part = tl.dot(a, b.T)
            acc += part * block_scales(sa_ptr, sb_ptr, rm, rn, m, n, kb, t, SCALE_K)
        c_desc.store([om, on], acc.to(tl.bfloat16))  # clipped at the edges of c


@triton.jit
def gemm_kernel(a_ptr, b_ptr, sa_ptr, sb_ptr, c_ptr, m, n, k, BLOCK_M: tl.constexpr,
                BLOCK_N: tl.constexpr, SCALE_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid_m, pid_n = tile_coords(tl.program_id(0), GROUP_M * tl.cdiv(n, BLOCK_N),
                               tl.cdiv(m, BLOCK_M), GROUP_M)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, SCALE_K)
    ram = tl.where(rm < m, rm, 0)  # clamped: computed, never stored
    rbn = tl.where(rn < n, rn, 0)
    kb = tl.cdiv(k, SCALE_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for t in range(kb):
        kk = t * SCALE_K + rk
        a = tl.load(a_ptr + ram[:, None] * k + kk[None, :], mask=kk[None, :] < k, other=0.0)
        b = tl.load(b_ptr + rbn[:, None] * k + kk[None, :], mask=kk[None, :] < k, other=0.0)
        part = tl.dot(a, tl.trans(b))
        acc += part * block_scales(sa_ptr, sb_ptr, rm, rn, m, n, kb, t, SCALE_K)
    tl.store(c_ptr + rm[:, None] * n + rn[None, :], acc.to(tl.bfloat16),
             mask=(rm[:, None] < m) & (rn[None, :] < n))


def tma_gemm(a, b, sa, sb, c, m, n, k, BLOCK_M, BLOCK_N, num_stages, num_warps):
    sms = torch.cuda.get_device_properties(a.device).multi_processor_count if a.is_cuda else 4
    a_desc = TensorDescriptor(a, [m, k], [k, 1], [BLOCK_M, SCALE_K])
    b_desc = TensorDescriptor(b, [n, k], [k, 1], [BLOCK_N, SCALE_K])
    c_desc = TensorDescriptor(c, [m, n], [n, 1], [BLOCK_M, BLOCK_N])
    grid = (min(sms, triton.cdiv(m, BLOCK_M) * triton.cdiv(n, BLOCK_N)),)
    tma_gemm_kernel[grid](a_desc, b_desc, c_desc, sa, sb, m, n, k, BLOCK_M=BLOCK_M,
                          BLOCK_N=BLOCK_N, SCALE_K=SCALE_K, GROUP_M=GROUP_M, NUM_SMS=sms,
                          num_warps=num_warps, num_stages=num_stages)


def solve(a: torch.Tensor, b: torch.Tensor, sa: torch.Tensor, sb: torch.Tensor, c: torch.Tensor,
          m: int, n: int, k: int):
    aligned = all(t.data_ptr() % 16 == 0 for t in (a, b, c))
    tma = k % 16 == 0 and n % 8 == 0 and aligned
    if os.environ.get("TRITON_INTERPRET") == "1":
        # Under the CPU interpreter: smaller output tiles (large ones are slow to emulate).
        if tma:
            tma_gemm(a, b, sa, sb, c, m, n, k, 32, 64, num_stages=1, num_warps=4)
        else:
            grid = (triton.cdiv(m, 32) * triton.cdiv(n, 64),)
            gemm_kernel[grid](a, b, sa, sb, c, m, n, k, BLOCK_M=32, BLOCK_N=64, SCALE_K=SCALE_K,
                              GROUP_M=GROUP_M)
        return
    if tma:
        tma_gemm(a, b, sa, sb, c, m, n, k, **TMA_CFG)
        return
    cfg = dict(PTR_CFG)
    warps, stages = cfg.pop("num_warps"), cfg.pop("num_stages")
    grid = (triton.cdiv(m, cfg["BLOCK_M"]) * triton.cdiv(n, cfg["BLOCK_N"]),)
    gemm_kernel[grid](a, b, sa, sb, c, m, n, k, **cfg, SCALE_K=SCALE_K, GROUP_M=GROUP_M,
                      num_warps=warps, num_stages=stages)
