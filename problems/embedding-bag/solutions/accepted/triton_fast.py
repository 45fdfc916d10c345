"""Embedding bag (mean), with many rows in flight: one program per bag and block of columns,
which gathers CHUNK rows of the bag at once (a [CHUNK, BLOCK_D] tile: CHUNK indices loaded
together, then CHUNK independent row loads) and sums the tile down its first axis. A gather is
a chain of two dependent loads (the index, then the row); issuing CHUNK of them together hides
the DRAM latency that the one-row-at-a-time loop waits out CHUNK times. Rows past the bag's end
are masked off; an empty bag stores 0. Offsets into the table are 64-bit."""

import triton
import triton.language as tl


@triton.jit
def bag_mean(
    weight_ptr, indices_ptr, offsets_ptr, out_ptr, dim,
    CHUNK: tl.constexpr, BLOCK_D: tl.constexpr,
):
    bag = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    live = cols < dim
    start = tl.load(offsets_ptr + bag)
    end = tl.load(offsets_ptr + bag + 1)
    acc = tl.zeros([CHUNK, BLOCK_D], dtype=tl.float32)
    for k in range(start, end, CHUNK):
        ks = k + tl.arange(0, CHUNK)
        on = ks < end
        rows = tl.load(indices_ptr + ks, mask=on, other=0).to(tl.int64)
        tile = tl.load(
            weight_ptr + rows[:, None] * dim + cols[None, :],
            mask=on[:, None] & live[None, :],
            other=0.0,
        )
        acc += tile
    total = tl.sum(acc, axis=0)
    count = tl.maximum(end - start, 1).to(tl.float32)
    tl.store(out_ptr + bag.to(tl.int64) * dim + cols, total / count, mask=live)


def solve(weight, indices, offsets, out, num_embeddings: int, dim: int, bags: int, nnz: int):
    # 128 columns (512 bytes of a row) per program: whole cache lines, and enough programs to
    # fill the GPU when there are few bags; 16 rows in flight per program.
    BLOCK_D = min(128, triton.next_power_of_2(dim))
    CHUNK = 16
    bag_mean[(bags, triton.cdiv(dim, BLOCK_D))](
        weight, indices, offsets, out, dim, CHUNK=CHUNK, BLOCK_D=BLOCK_D, num_warps=4
    )
