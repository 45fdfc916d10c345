# expect: wrong_answer
# Bug: rounds the inputs to bfloat16 (8 bits of mantissa) "to save bandwidth", then adds
# in float32. The result is off by up to ~2^-8 ≈ 0.4% relative, far more than float32's
# tolerance.
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask).to(tl.bfloat16).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask).to(tl.bfloat16).to(tl.float32)
    tl.store(c_ptr + offs, a + b, mask=mask)


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int):
    BLOCK = 1024
    add_kernel[(triton.cdiv(n, BLOCK),)](a, b, c, n, BLOCK=BLOCK)
