# expect: wrong_answer
"""Bug: the k loop runs k // BLOCK_K full steps and drops the last partial one.

Rows and columns are masked correctly, so nothing is read out of bounds; but whenever k is not
a multiple of 32 the last k % 32 products are never added (for k < 32, none at all).
"""

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
    for kb in range(0, k // BLOCK_K):  # BUG: should be tl.cdiv(k, BLOCK_K), with a k mask
        ka = kb * BLOCK_K + rk
        a = tl.load(a_ptr + rm[:, None] * k + ka[None, :], mask=rm[:, None] < m, other=0.0)
        b = tl.load(b_ptr + ka[:, None] * n + rn[None, :], mask=rn[None, :] < n, other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * n + rn[None, :], acc, mask=(rm[:, None] < m) & (rn[None, :] < n))


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, m: int, n: int, k: int):
    grid = (triton.cdiv(m, 64), triton.cdiv(n, 64))
    matmul_kernel[grid](a, b, c, m, n, k, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
