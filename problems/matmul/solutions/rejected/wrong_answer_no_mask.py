# expect: wrong_answer
# expect-message: c: wrote past the end
"""Bug: the store of the C tile has no mask.

As in Triton's matmul tutorial, the row and column offsets of the loads wrap around
(% m, % n), so every load is in bounds and only k needs a load mask. But the tile of c is
then stored whole: for a tile that sticks out past row m or column n, the columns past n
land in the next row of c (rows of c are n floats apart) and the rows past m land after the
end of c. Right only when m and n are multiples of 64. The fix:
mask=(rm[:, None] < m) & (rn[None, :] < n) on the store, with rm, rn before the wrap-around.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, m, n, k, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    am = rm % m  # wrapped: loads of rows past m read real rows
    bn = rn % n
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, k, BLOCK_K):
        ka = k0 + rk
        a = tl.load(a_ptr + am[:, None] * k + ka[None, :], mask=ka[None, :] < k, other=0.0)
        b = tl.load(b_ptr + ka[:, None] * n + bn[None, :], mask=ka[:, None] < k, other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * n + rn[None, :], acc)  # BUG: no mask for rm >= m, rn >= n


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, m: int, n: int, k: int):
    BLOCK_M, BLOCK_N, BLOCK_K = 64, 64, 32
    grid = (triton.cdiv(m, BLOCK_M), triton.cdiv(n, BLOCK_N))
    matmul_kernel[grid](a, b, c, m, n, k, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
