"""Byte histogram, the straightforward way: zero the 256 bins, then one program per 1024
bytes adds 1 to bins[byte] with an atomic add for every byte it holds. Atomics make the
concurrent increments safe (two programs, or two lanes of one program, may hit the same
bin); under heavy contention they serialise, which is what the fast version avoids."""

import torch
import triton
import triton.language as tl


@triton.jit
def zero_kernel(bins_ptr, BINS: tl.constexpr):
    tl.store(bins_ptr + tl.arange(0, BINS), tl.zeros([BINS], dtype=tl.int32))


@triton.jit
def count_kernel(data_ptr, bins_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    byte = tl.load(data_ptr + offs, mask=mask, other=0).to(tl.int32)  # uint8 -> 0..255
    tl.atomic_add(bins_ptr + byte, 1, mask=mask)


def solve(data: torch.Tensor, bins: torch.Tensor, n: int):
    zero_kernel[(1,)](bins, BINS=256)
    BLOCK = 1024
    count_kernel[(triton.cdiv(n, BLOCK),)](data, bins, n, BLOCK=BLOCK)
