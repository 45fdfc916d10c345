# expect: wrong_answer
# expect-message: was it written?
# Bug: counts the outputs as n - k instead of n - k + 1 (the windows that fit start at
# 0, 1, ..., n - k: that is n - k + 1 of them), so the last output is never written and
# keeps the NaN the judge filled y with. With n = k there is no output at all.
import torch
import triton
import triton.language as tl


@triton.jit
def conv1d_kernel(x_ptr, w_ptr, y_ptr, n_out, k, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_out
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for j in range(0, k):
        acc += tl.load(x_ptr + offs + j, mask=mask, other=0.0) * tl.load(w_ptr + j)
    tl.store(y_ptr + offs, acc, mask=mask)


def solve(x: torch.Tensor, w: torch.Tensor, y: torch.Tensor, n: int, k: int):
    n_out = n - k  # BUG: n - k + 1
    conv1d_kernel[(max(1, triton.cdiv(n_out, 1024)),)](x, w, y, n_out, k, BLOCK=1024)
