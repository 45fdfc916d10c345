# expect: runtime_error
# Raises at call time: the block size is looked up in a list with an index past its end.
import torch
import triton
import triton.language as tl

BLOCK_SIZES = [256, 512, 1024]


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int):
    BLOCK = BLOCK_SIZES[len(BLOCK_SIZES)]  # IndexError: list index out of range
    add_kernel[(triton.cdiv(n, BLOCK),)](a, b, c, n, BLOCK=BLOCK)
