# expect: time_limit_exceeded
"""Bug: the k loop is a `while` whose counter is never advanced, so it never ends. The loop
stores every iteration and its condition depends on the run-time k, so the compiler can neither
drop it nor prove it finite: the kernel spins until the judge's time limit."""

import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, m, n, k, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    c_ptrs = c_ptr + rm[:, None] * n + rn[None, :]
    c_mask = (rm[:, None] < m) & (rn[None, :] < n)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    k0 = 0
    while k0 < k:  # BUG: k0 is never incremented
        ka = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * k + ka[None, :],
                    mask=(rm[:, None] < m) & (ka[None, :] < k), other=0.0)
        b = tl.load(b_ptr + ka[:, None] * n + rn[None, :],
                    mask=(ka[:, None] < k) & (rn[None, :] < n), other=0.0)
        acc += tl.dot(a, b)
        tl.store(c_ptrs, acc, mask=c_mask)


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, m: int, n: int, k: int):
    grid = (triton.cdiv(m, 64), triton.cdiv(n, 64))
    matmul_kernel[grid](a, b, c, m, n, k, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
