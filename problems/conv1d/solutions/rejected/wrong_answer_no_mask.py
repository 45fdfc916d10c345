# expect: wrong_answer
# expect-message: y: wrote past the end
# Bug: the loads are masked but the store is not. The last program's lanes past the
# n - k + 1 outputs write their (zero) sums past the end of y. Right only when the number
# of outputs is a multiple of BLOCK. The fix: mask=offs < n_out on the store too.
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
    tl.store(y_ptr + offs, acc)  # BUG: no mask=mask


def solve(x: torch.Tensor, w: torch.Tensor, y: torch.Tensor, n: int, k: int):
    n_out = n - k + 1
    conv1d_kernel[(triton.cdiv(n_out, 256),)](x, w, y, n_out, k, BLOCK=256)
