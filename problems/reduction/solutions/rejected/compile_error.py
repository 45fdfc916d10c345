# expect: compile_error
# Calls tl.reduce_sum, which does not exist (the function is tl.sum); Triton reports the
# error when it compiles the kernel at the first call.
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
    tl.atomic_add(out_ptr, tl.reduce_sum(x, axis=0))


def solve(x: torch.Tensor, out: torch.Tensor, n: int):
    BLOCK = 1024
    zero_kernel[(1,)](out)
    sum_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
