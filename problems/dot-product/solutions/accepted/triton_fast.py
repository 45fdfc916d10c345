"""Dot product at memory speed, in two passes, deterministic.

Pass 1: a grid of a few programs per SM. Each program strides over a and b in tiles of
BLOCK elements and adds every tile's products into a BLOCK-wide float32 accumulator (each
lane adds only n / (P · BLOCK) products in sequence, so rounding stays small), then reduces
the accumulator with tl.sum and writes one partial sum. Pass 2: one program adds the P
partial sums and writes out[0]. Pass 2 reads a few KB; the time is pass 1 streaming a and b
once. No atomics, so the same input gives the same bits every time.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def partial_dots(a_ptr, b_ptr, part_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0) * BLOCK
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(pid * BLOCK, n, step):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        a = tl.load(a_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first")
        b = tl.load(b_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first")
        acc += a * b
    tl.store(part_ptr + pid, tl.sum(acc, axis=0))


@triton.jit
def add_partials(part_ptr, out_ptr, p, BLOCK_P: tl.constexpr):
    offs = tl.arange(0, BLOCK_P)
    tl.store(out_ptr, tl.sum(tl.load(part_ptr + offs, mask=offs < p, other=0.0), axis=0))


_SMS: dict[int, int] = {}


def _programs_per_pass(t: torch.Tensor) -> int:
    if not t.is_cuda:
        return 16  # the CPU interpreter runs programs one at a time: keep few
    idx = t.device.index or 0
    if idx not in _SMS:
        _SMS[idx] = torch.cuda.get_device_properties(idx).multi_processor_count
    return 8 * _SMS[idx]  # 8 programs of 8 warps fill an SM's 64 warps


def solve(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor, n: int):
    BLOCK = 4096  # 8 warps x 16 floats per thread per input: four 128-bit loads of each
    p = min(triton.cdiv(n, BLOCK), _programs_per_pass(a))
    part = torch.empty(p, dtype=torch.float32, device=a.device)  # scratch: allowed
    partial_dots[(p,)](a, b, part, n, BLOCK=BLOCK, num_warps=8)
    add_partials[(1,)](part, out, p, BLOCK_P=max(triton.next_power_of_2(p), 16))
