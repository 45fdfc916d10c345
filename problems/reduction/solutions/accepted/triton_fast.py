"""Sum reduction at memory speed, deterministic, no atomics.

Pass 1: a grid of 8 programs per SM; each strides over x in tiles of BLOCK elements,
adding every tile into a BLOCK-wide float32 accumulator (each lane adds only n / (P·BLOCK)
numbers in sequence, which keeps rounding error small), then reduces it with tl.sum (a
tree) and writes one partial sum. Pass 2: one program adds the P partial sums and writes
out[0]. Pass 2 reads a few KB, so nearly all the time is pass 1 streaming x once.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def partial_sums(x_ptr, part_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(pid * BLOCK, n, nprog * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0, eviction_policy="evict_first")
    tl.store(part_ptr + pid, tl.sum(acc, axis=0))


@triton.jit
def final_sum(part_ptr, out_ptr, p, BLOCK_P: tl.constexpr):
    offs = tl.arange(0, BLOCK_P)
    v = tl.load(part_ptr + offs, mask=offs < p, other=0.0)
    tl.store(out_ptr, tl.sum(v, axis=0))


_SMS: dict[int, int] = {}


def _num_sms(t: torch.Tensor) -> int:
    if not t.is_cuda:
        return 4  # the CPU interpreter: few programs, fewer Python-level launches
    idx = t.device.index or 0
    if idx not in _SMS:
        _SMS[idx] = torch.cuda.get_device_properties(idx).multi_processor_count
    return _SMS[idx]


def solve(x: torch.Tensor, out: torch.Tensor, n: int):
    BLOCK = 4096  # 8 warps x 16 floats per thread: four 128-bit loads per thread per tile
    p = min(triton.cdiv(n, BLOCK), 8 * _num_sms(x))
    part = torch.empty(p, dtype=torch.float32, device=x.device)  # scratch: allowed
    partial_sums[(p,)](x, part, n, BLOCK=BLOCK, num_warps=8)
    final_sum[(1,)](part, out, p, BLOCK_P=max(triton.next_power_of_2(p), 16))
