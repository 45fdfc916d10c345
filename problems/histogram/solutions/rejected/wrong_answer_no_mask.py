# expect: wrong_answer
# expect-message: bins: wrote past the end
# Bug: the bins are zeroed with a general "fill a buffer" helper copied from a vector-add
# kernel, with its tail mask left out. One program of 1024 lanes stores 1024 zeros, and bins
# holds 256 counts: the other 768 land in the memory after bins (on a GPU, someone else's
# data). The counting itself is right, so only that write is wrong, for every n. The fix:
# mask=offs < size on the store.
import torch
import triton
import triton.language as tl


@triton.jit
def fill_kernel(ptr, size, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(ptr + offs, tl.zeros([BLOCK], dtype=tl.int32))  # BUG: no mask=offs < size


@triton.jit
def count_kernel(data_ptr, bins_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    byte = tl.load(data_ptr + offs, mask=mask, other=0).to(tl.int32)
    tl.atomic_add(bins_ptr + byte, 1, mask=mask)


def solve(data: torch.Tensor, bins: torch.Tensor, n: int):
    BLOCK = 1024
    fill_kernel[(triton.cdiv(256, BLOCK),)](bins, 256, BLOCK=BLOCK)
    count_kernel[(triton.cdiv(n, BLOCK),)](data, bins, n, BLOCK=BLOCK)
