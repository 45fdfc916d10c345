# expect: wrong_answer
# Bug: an off-by-one in the mask. "The last valid index is n - 1" became offs < n - 1, so
# the last product a[n-1] · b[n-1] is never added (for n = 1 the result is 0). The fix:
# offs < n.
import torch
import triton
import triton.language as tl


@triton.jit
def zero_kernel(out_ptr):
    tl.store(out_ptr, 0.0)


@triton.jit
def dot_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n - 1  # BUG: excludes index n - 1
    a = tl.load(a_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(a * b, axis=0))


def solve(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor, n: int):
    BLOCK = 1024
    zero_kernel[(1,)](out)
    dot_kernel[(triton.cdiv(n, BLOCK),)](a, b, out, n, BLOCK=BLOCK)
