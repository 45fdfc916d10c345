# expect: wrong_answer
# Bug: the grid has n // BLOCK programs instead of cdiv(n, BLOCK): an off-by-one in the
# number of blocks. The bytes of the last, partial block are never counted (for n < 1024,
# none are). Right only when n is a multiple of 1024.
import torch
import triton
import triton.language as tl


@triton.jit
def zero_kernel(bins_ptr, BINS: tl.constexpr):
    tl.store(bins_ptr + tl.arange(0, BINS), tl.zeros([BINS], dtype=tl.int32))


@triton.jit
def count_kernel(data_ptr, bins_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    byte = tl.load(data_ptr + offs, mask=mask, other=0).to(tl.int32)
    tl.atomic_add(bins_ptr + byte, 1, mask=mask)


def solve(data: torch.Tensor, bins: torch.Tensor, n: int):
    zero_kernel[(1,)](bins, BINS=256)
    BLOCK = 1024
    if n // BLOCK > 0:
        count_kernel[(n // BLOCK,)](data, bins, n, BLOCK=BLOCK)  # BUG: rounds down
