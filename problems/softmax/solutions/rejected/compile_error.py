# expect: compile_error
# Tries to size the block inside the kernel with tl.next_power_of_2(cols): there is no such
# function in triton.language (triton.next_power_of_2 exists, but only on the host, and a
# block size must be a compile-time constant anyway). Triton reports the error when it
# compiles the kernel at the first call.
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, cols):
    row = tl.program_id(0).to(tl.int64)
    BLOCK = tl.next_power_of_2(cols)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + row * cols + offs, mask=mask, other=float("-inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * cols + offs, e / tl.sum(e, axis=0), mask=mask)


def solve(x: torch.Tensor, y: torch.Tensor, rows: int, cols: int):
    softmax_kernel[(rows,)](x, y, cols)
