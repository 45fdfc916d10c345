# expect: wrong_answer
# Bug: each program keeps its private counts in int16 to save registers. A program counts
# 65536 bytes, and when more than 32767 of them are the same value (all-one-value or 90%-one-
# value input) that counter wraps around to a negative number before it is added to the
# global bins. Private counters must hold the most a program can count: int32 here.
import torch
import triton
import triton.language as tl


@triton.jit
def zero_kernel(bins_ptr, BINS: tl.constexpr):
    tl.store(bins_ptr + tl.arange(0, BINS), tl.zeros([BINS], dtype=tl.int32))


@triton.jit
def count_kernel(data_ptr, bins_ptr, n, CHUNK: tl.constexpr, BLOCK: tl.constexpr):
    start = tl.program_id(0).to(tl.int64) * CHUNK
    counts = tl.zeros([256], dtype=tl.int16)  # BUG: overflows past 32767
    for off in range(0, CHUNK, BLOCK):
        offs = start + off + tl.arange(0, BLOCK)
        mask = offs < n
        byte = tl.load(data_ptr + offs, mask=mask, other=0).to(tl.int32)
        counts += tl.histogram(byte, 256, mask=mask).to(tl.int16)
    tl.atomic_add(bins_ptr + tl.arange(0, 256), counts.to(tl.int32))


def solve(data: torch.Tensor, bins: torch.Tensor, n: int):
    zero_kernel[(1,)](bins, BINS=256)
    CHUNK = 65536
    count_kernel[(triton.cdiv(n, CHUNK),)](data, bins, n, CHUNK=CHUNK, BLOCK=4096)
