# expect: runtime_error
"""Bug on the host side: the launch grid is computed with `m // BLOCK_M` tiles per column,
which is 0 whenever m < 64, and the tile count is then divided by it: ZeroDivisionError in
solve before any kernel runs (the first test has m = 1)."""

import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, m, n, k, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, k, BLOCK_K):
        ka = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * k + ka[None, :],
                    mask=(rm[:, None] < m) & (ka[None, :] < k), other=0.0)
        b = tl.load(b_ptr + ka[:, None] * n + rn[None, :],
                    mask=(ka[:, None] < k) & (rn[None, :] < n), other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * n + rn[None, :], acc, mask=(rm[:, None] < m) & (rn[None, :] < n))


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, m: int, n: int, k: int):
    tiles_m = m // 64                      # BUG: should be triton.cdiv(m, 64)
    tiles_n = (triton.cdiv(m, 64) * triton.cdiv(n, 64)) // tiles_m
    matmul_kernel[(tiles_m, tiles_n)](a, b, c, m, n, k, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
