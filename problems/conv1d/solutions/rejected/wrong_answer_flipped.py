# expect: wrong_answer
# Bug: computes the textbook convolution, y[i] = sum_j x[i + j]·w[k - 1 - j] (the filter
# reversed), where the problem asks for the correlation y[i] = sum_j x[i + j]·w[j] that
# deep-learning "convolutions" (torch.conv1d) compute. The two agree only when w is
# symmetric, e.g. k = 1.
import torch
import triton
import triton.language as tl


@triton.jit
def conv1d_kernel(x_ptr, w_ptr, y_ptr, n_out, k, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_out
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for j in range(0, k):
        w = tl.load(w_ptr + (k - 1 - j))  # BUG: w_ptr + j
        acc += tl.load(x_ptr + offs + j, mask=mask, other=0.0) * w
    tl.store(y_ptr + offs, acc, mask=mask)


def solve(x: torch.Tensor, w: torch.Tensor, y: torch.Tensor, n: int, k: int):
    n_out = n - k + 1
    conv1d_kernel[(triton.cdiv(n_out, 1024),)](x, w, y, n_out, k, BLOCK=1024)
