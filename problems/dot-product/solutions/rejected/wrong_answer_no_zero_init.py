# expect: wrong_answer
# expect-message: before each call
# Bug: accumulates into out[0] with atomic adds but never zeroes it first. Outputs are not
# zero when solve is called (the judge fills them with NaN, and on a GPU a reused buffer holds
# the last call's result), so the sum starts from garbage. The fix: a one-program kernel that
# stores 0.0 first, on the same stream.
import torch
import triton
import triton.language as tl


@triton.jit
def dot_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(a * b, axis=0))


def solve(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor, n: int):
    BLOCK = 1024
    dot_kernel[(triton.cdiv(n, BLOCK),)](a, b, out, n, BLOCK=BLOCK)
