# expect: wrong_answer
# Bug: the grid is rounded down (n // BLOCK) instead of up, so the last partial block is
# never computed and the tail of c keeps whatever was there. Right only when n is a
# multiple of BLOCK (or smaller than it, thanks to the max(1, ...)).
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    tl.store(c_ptr + offs, a + b, mask=mask)


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int):
    BLOCK = 1024
    grid = (max(1, n // BLOCK),)
    add_kernel[grid](a, b, c, n, BLOCK=BLOCK)
