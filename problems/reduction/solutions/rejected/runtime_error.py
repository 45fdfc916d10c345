# expect: runtime_error
# Assumes n is a multiple of 1024 and views x as a (n // 1024, 1024) matrix: torch raises
# "shape '[0, 1024]' is invalid for input of size 1" at the first call.
import torch
import triton
import triton.language as tl


@triton.jit
def zero_kernel(out_ptr):
    tl.store(out_ptr, 0.0)


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x = tl.load(x_ptr + row * BLOCK + tl.arange(0, BLOCK))
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


def solve(x: torch.Tensor, out: torch.Tensor, n: int):
    rows = x.view(n // 1024, 1024)
    zero_kernel[(1,)](out)
    row_sum_kernel[(rows.shape[0],)](rows, out, BLOCK=1024)
