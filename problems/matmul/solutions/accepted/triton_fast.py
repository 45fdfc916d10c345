"""Tiled TF32 matmul on Hopper tensor cores: b transposed into scratch, then a persistent,
warp-specialised GEMM fed by TMA.

Hopper's warpgroup MMA (wgmma) takes TF32 operands from shared memory only in "K-major" layout:
both tiles contiguous along k. a (m x k, row-major) already is; b (k x n, row-major) is not, and
with it Triton falls back to the older mma instructions at about a quarter of the speed. So the
solution first copies b into a scratch buffer bt (n x k) with a tiled transpose (allocating scratch
memory is allowed; at 4096^2 the transpose costs 44 us, at the copy bandwidth), and the GEMM then
loads (BLOCK_N x BLOCK_K) tiles of bt and multiplies by their transpose, which Triton lowers to
wgmma.

The GEMM, when k is a multiple of 4 (rows of 16-byte multiples, as the Tensor Memory Accelerator
needs): one program per SM, walking output tiles in groups of GROUP_M rows (neighbouring tiles
share a and bt tiles in L2); tiles of a and bt arrive by TMA (tensor descriptors, zero-filled past
the edges, so no masks), and ``warp_specialize`` gives the loads a producer warp while the other
warps issue wgmma. Otherwise (k = 2049 in the ragged benchmark) a pointer-based pipelined GEMM:
rows past m and columns past n clamped on load and masked on store, the k loop unmasked over full
steps and masked only in the last partial one. Sizes satisfy m * k, k * n, m * n < 2^31, so int32
offsets suffice.

On an H100 (Triton 3.6) at 4096^3: the TMA GEMM alone 348 us (395 TFLOP/s, cuBLAS's speed), with
the transpose ~0.39 ms: 0.88x cuBLAS, which has no transpose to do
(``benchmarks/matmul_variants.py``).
"""

import os

import torch
import triton
import triton.language as tl

from triton.tools.tensor_descriptor import TensorDescriptor

# Pointer GEMM, timed on an H100 (Triton 3.6) with the transpose: 128 x 256 x 32 tiles, 3 stages,
# 8 warps was the fastest of 8 shapes at both benchmark sizes (0.42 ms at 4096^3, 0.55 ms at
# 3000 x 5000 x 2049). A stage is (128 + 256) x 32 floats = 48 KB of shared memory.
LARGE = triton.Config({"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 32}, num_stages=3, num_warps=8)
SMALL = triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32}, num_stages=4, num_warps=4)
# TMA GEMM: 4 stages of 48 KB with warp specialisation (348 us at 4096^3); 128 x 128 tiles for
# small outputs, where 128 x 256 tiles would leave SMs idle.
TMA_LARGE = dict(BLOCK_M=128, BLOCK_N=256, BLOCK_K=32, num_stages=4, num_warps=8, WS=True)
TMA_SMALL = dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=32, num_stages=4, num_warps=4, WS=False)


@triton.jit
def transpose_kernel(src, dst, rows, cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    r = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    c = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    mask = (r[:, None] < rows) & (c[None, :] < cols)
    x = tl.load(src + r[:, None] * cols + c[None, :], mask=mask)
    tl.store(dst + c[None, :] * rows + r[:, None], x, mask=mask)


@triton.jit
def matmul_kernel(a_ptr, bt_ptr, c_ptr, m, n, k, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(m, BLOCK_M)
    num_pid_n = tl.cdiv(n, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    # Clamp out-of-range rows/columns to a valid one: the loads then need only the k mask and
    # stay vectorized; the extra rows are computed but never stored.
    ram = tl.where(rm < m, rm, 0)
    rbn = tl.where(rn < n, rn, 0)
    a_ptrs = a_ptr + ram[:, None] * k + rk[None, :]
    b_ptrs = bt_ptr + rbn[:, None] * k + rk[None, :]

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    # Full k-steps without masks (a mask in the loop body gets in the way of the pipelined
    # loads), then at most one masked partial step.
    for _ in range(0, k // BLOCK_K):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, tl.trans(b), acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K
    k_left = k % BLOCK_K
    if k_left > 0:
        a = tl.load(a_ptrs, mask=rk[None, :] < k_left, other=0.0)
        b = tl.load(b_ptrs, mask=rk[None, :] < k_left, other=0.0)
        acc = tl.dot(a, tl.trans(b), acc)

    c_ptrs = c_ptr + rm[:, None] * n + rn[None, :]
    tl.store(c_ptrs, acc, mask=(rm[:, None] < m) & (rn[None, :] < n))


@triton.jit
def tile_coords(tile, num_pid_in_group, num_pid_m, GROUP_M: tl.constexpr):
    group_id = tile // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (tile % group_size_m)
    pid_n = (tile % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def tma_matmul_kernel(a_desc, bt_desc, c_ptr, m, n, k, BLOCK_M: tl.constexpr,
                      BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                      NUM_SMS: tl.constexpr, WS: tl.constexpr):
    num_pid_m = tl.cdiv(m, BLOCK_M)
    num_pid_n = tl.cdiv(n, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    k_tiles = tl.cdiv(k, BLOCK_K)
    for tile in tl.range(tl.program_id(0), num_pid_m * num_pid_n, NUM_SMS, warp_specialize=WS):
        pid_m, pid_n = tile_coords(tile, num_pid_in_group, num_pid_m, GROUP_M)
        om = pid_m * BLOCK_M
        on = pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(k_tiles):
            a = a_desc.load([om, ki * BLOCK_K])  # zero past m and k
            b = bt_desc.load([on, ki * BLOCK_K])  # zero past n and k
            acc = tl.dot(a, b.T, acc)
        rm = om + tl.arange(0, BLOCK_M)
        rn = on + tl.arange(0, BLOCK_N)
        tl.store(c_ptr + rm[:, None] * n + rn[None, :], acc,
                 mask=(rm[:, None] < m) & (rn[None, :] < n))


def tma_matmul(a, bt, c, m, n, k, BLOCK_M, BLOCK_N, BLOCK_K, num_stages, num_warps, WS):
    sms = torch.cuda.get_device_properties(a.device).multi_processor_count if a.is_cuda else 4
    a_desc = TensorDescriptor(a, [m, k], [k, 1], [BLOCK_M, BLOCK_K])
    bt_desc = TensorDescriptor(bt, [n, k], [k, 1], [BLOCK_N, BLOCK_K])
    grid = (min(sms, triton.cdiv(m, BLOCK_M) * triton.cdiv(n, BLOCK_N)),)
    tma_matmul_kernel[grid](a_desc, bt_desc, c, m, n, k, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                            BLOCK_K=BLOCK_K, GROUP_M=8, NUM_SMS=sms, WS=WS,
                            num_warps=num_warps, num_stages=num_stages)


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, m: int, n: int, k: int):
    bt = torch.empty((n, k), dtype=b.dtype, device=b.device)  # scratch: allowed
    transpose_kernel[(triton.cdiv(k, 64), triton.cdiv(n, 64))](b, bt, k, n, BLOCK_R=64, BLOCK_C=64)
    # TMA needs 16-byte aligned rows (k a multiple of 4) and base addresses.
    tma = k % 4 == 0 and a.data_ptr() % 16 == 0
    if os.environ.get("TRITON_INTERPRET") == "1":
        # Under the CPU interpreter: moderate tiles (big tiles are slow to emulate).
        if tma:
            tma_matmul(a, bt, c, m, n, k, 64, 64, 32, num_stages=1, num_warps=4, WS=False)
            return
        grid = (triton.cdiv(m, 64) * triton.cdiv(n, 64),)
        matmul_kernel[grid](a, bt, c, m, n, k, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32, GROUP_M=8)
        return
    if tma:
        tma_matmul(a, bt, c, m, n, k, **(TMA_LARGE if m * n >= 1024 * 1024 else TMA_SMALL))
        return

    # One config per size class instead of autotuning: autotuning keyed on (m, n, k) would time
    # every config for every distinct test shape, which costs tens of seconds of JIT.
    cfg = LARGE if m * n >= 1024 * 1024 else SMALL
    bm, bn = cfg.kwargs["BLOCK_M"], cfg.kwargs["BLOCK_N"]
    grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
    matmul_kernel[grid](a, bt, c, m, n, k, **cfg.kwargs, GROUP_M=8, num_warps=cfg.num_warps,
                        num_stages=cfg.num_stages)
