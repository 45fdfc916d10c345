# expect: wrong_answer
# Bug: the grid is rounded down (n // BLOCK), so the elements past the last full block are
# never added (and for n < BLOCK no program runs at all, leaving out[0] = 0). Right only
# when n is a multiple of BLOCK.
import torch
import triton
import triton.language as tl


@triton.jit
def zero_kernel(out_ptr):
    tl.store(out_ptr, 0.0)


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


def solve(x: torch.Tensor, out: torch.Tensor, n: int):
    BLOCK = 1024
    zero_kernel[(1,)](out)
    sum_kernel[(n // BLOCK,)](x, out, n, BLOCK=BLOCK)
