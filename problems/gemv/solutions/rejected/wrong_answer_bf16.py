# expect: wrong_answer
# expect-message: out of tolerance
# Bug: a precision mistake. The inputs are bfloat16, so the kernel multiplies and
# accumulates in bfloat16 too, "to match". bfloat16 keeps 8 significant bits: every
# addition rounds the running sum to ~2^-9 of its size, and once a sum is 256 times a
# product, adding the product changes nothing. On rows without cancellation the result is
# off by ~1e-3 of the sum, ten times the tolerance. The fix: convert to float32 before
# multiplying (bf16 x bf16 is exact in float32) and accumulate in float32.
import torch
import triton
import triton.language as tl


@triton.jit
def gemv_row(w_ptr, x_ptr, y_ptr, m, k, BLOCK_K: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK_K], dtype=tl.bfloat16)  # BUG: should be float32
    for k0 in range(0, k, BLOCK_K):
        cols = k0 + tl.arange(0, BLOCK_K)
        mask = cols < k
        w = tl.load(w_ptr + row * k + cols, mask=mask, other=0.0)
        x = tl.load(x_ptr + cols, mask=mask, other=0.0)
        acc += w * x
    tl.store(y_ptr + row, tl.sum(acc, axis=0).to(tl.float32))


def solve(w: torch.Tensor, x: torch.Tensor, y: torch.Tensor, m: int, k: int):
    gemv_row[(m,)](w, x, y, m, k, BLOCK_K=128)
