"""1-D convolution, the straightforward way: one program per BLOCK consecutive outputs, a
loop over the k taps, and for each tap one load of the shifted window x[i + j] and one
multiply-add into a float32 accumulator. Neighbouring outputs share k - 1 of their inputs,
so after the first tap the loads hit the L1 cache; it is still one load per multiply-add,
which is what a fast version avoids."""

import torch
import triton
import triton.language as tl


@triton.jit
def conv1d_kernel(x_ptr, w_ptr, y_ptr, n_out, k, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_out
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for j in range(0, k):
        w = tl.load(w_ptr + j)
        acc += tl.load(x_ptr + offs + j, mask=mask, other=0.0) * w
    tl.store(y_ptr + offs, acc, mask=mask)


def solve(x: torch.Tensor, w: torch.Tensor, y: torch.Tensor, n: int, k: int):
    n_out = n - k + 1
    BLOCK = 1024
    conv1d_kernel[(triton.cdiv(n_out, BLOCK),)](x, w, y, n_out, k, BLOCK=BLOCK)
