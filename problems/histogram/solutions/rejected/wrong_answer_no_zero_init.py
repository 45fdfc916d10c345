# expect: wrong_answer
# Bug: the bins are never zeroed. The counting is right, but it adds to whatever bins held
# when solve was called: here the judge's garbage (every byte 0x7F), on a GPU often the last
# call's counts. An output must be written, not assumed.
import torch
import triton
import triton.language as tl


@triton.jit
def count_kernel(data_ptr, bins_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    byte = tl.load(data_ptr + offs, mask=mask, other=0).to(tl.int32)
    tl.atomic_add(bins_ptr + byte, 1, mask=mask)


def solve(data: torch.Tensor, bins: torch.Tensor, n: int):
    BLOCK = 1024  # BUG: bins are not zeroed first
    count_kernel[(triton.cdiv(n, BLOCK),)](data, bins, n, BLOCK=BLOCK)
