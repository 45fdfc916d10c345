"""Embedding bag (mean), the straightforward way: one program per bag and block of BLOCK_D
columns. It walks the bag's indices one at a time, adds the named row's columns into a float32
accumulator, and divides by the bag's length; an empty bag divides 0 by 1 and stores 0. Row
offsets are computed in 64 bits: index * dim passes 2^31 on a large table."""

import triton
import triton.language as tl


@triton.jit
def bag_mean(weight_ptr, indices_ptr, offsets_ptr, out_ptr, dim, BLOCK_D: tl.constexpr):
    bag = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    live = cols < dim
    start = tl.load(offsets_ptr + bag)
    end = tl.load(offsets_ptr + bag + 1)
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    for k in range(start, end):
        row = tl.load(indices_ptr + k).to(tl.int64)
        acc += tl.load(weight_ptr + row * dim + cols, mask=live, other=0.0)
    count = tl.maximum(end - start, 1).to(tl.float32)
    tl.store(out_ptr + bag.to(tl.int64) * dim + cols, acc / count, mask=live)


def solve(weight, indices, offsets, out, num_embeddings: int, dim: int, bags: int, nnz: int):
    BLOCK_D = min(256, triton.next_power_of_2(dim))
    bag_mean[(bags, triton.cdiv(dim, BLOCK_D))](weight, indices, offsets, out, dim, BLOCK_D=BLOCK_D)
