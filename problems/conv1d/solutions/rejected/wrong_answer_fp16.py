# expect: wrong_answer
# expect-message: out of tolerance
# Bug: a 16-bit accumulator. The products are float32, but the running sum is kept in
# float16 "to save registers": every addition rounds the sum to 11 significant bits
# (2^-11 ≈ 4.9e-4 relative), and over k taps those roundings pile up to 1e-3 to 1e-2 of
# the scale, where float32 needs 1e-5.
import torch
import triton
import triton.language as tl


@triton.jit
def conv1d_kernel(x_ptr, w_ptr, y_ptr, n_out, k, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_out
    acc = tl.zeros([BLOCK], dtype=tl.float16)  # BUG: tl.float32
    for j in range(0, k):
        prod = tl.load(x_ptr + offs + j, mask=mask, other=0.0) * tl.load(w_ptr + j)
        acc = (acc.to(tl.float32) + prod).to(tl.float16)
    tl.store(y_ptr + offs, acc.to(tl.float32), mask=mask)


def solve(x: torch.Tensor, w: torch.Tensor, y: torch.Tensor, n: int, k: int):
    n_out = n - k + 1
    conv1d_kernel[(triton.cdiv(n_out, 1024),)](x, w, y, n_out, k, BLOCK=1024)
