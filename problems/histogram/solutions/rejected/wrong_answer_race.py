# expect: wrong_answer
# Bug: the count is a plain read-modify-write (load the bin, add 1, store it back) instead of
# an atomic add. Two lanes holding the same byte read the same old count and both store
# old + 1: one increment is lost. The same happens between programs running at the same
# time on a GPU. Right only when no two bytes of the input are equal.
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
    old = tl.load(bins_ptr + byte, mask=mask)
    tl.store(bins_ptr + byte, old + 1, mask=mask)  # BUG: not atomic


def solve(data: torch.Tensor, bins: torch.Tensor, n: int):
    zero_kernel[(1,)](bins, BINS=256)
    BLOCK = 1024
    count_kernel[(triton.cdiv(n, BLOCK),)](data, bins, n, BLOCK=BLOCK)
