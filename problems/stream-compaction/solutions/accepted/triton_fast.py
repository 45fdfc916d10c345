"""Stream compaction in one pass: the kept counts are scanned across tiles with decoupled
look-back (as in prefix-sum's fast sample), so x is read once.

Each program takes a ticket (tiles are numbered in the order programs start, so waiting on
earlier tiles cannot deadlock), loads its tile, numbers its kept elements with tl.cumsum of
the keep flags, and publishes its kept count at once. It then looks back over the states of
earlier tiles, WINDOW at a time, summing published counts back to the nearest tile that has
published its inclusive total; that sum is where the tile's run starts in out. It publishes
its own inclusive total, scatters its kept elements, and the last tile writes count.

A tile's state is one int64: flag in the high 32 bits (1 count, 2 inclusive total), the
value in the low 32, written with one atomic exchange."""

import torch
import triton
import triton.language as tl

PREFIX = tl.constexpr(2)
NONE = tl.constexpr(-(2**31) + 1)  # "no inclusive total in this window"
AGGREGATE_HIGH = tl.constexpr(1 << 32)
PREFIX_HIGH = tl.constexpr(2 << 32)


@triton.jit
def compact_kernel(
    x_ptr, out_ptr, count_ptr, state_ptr, ticket_ptr, n, tiles,
    TILE: tl.constexpr, WINDOW: tl.constexpr,
):
    tile = tl.atomic_add(ticket_ptr, 1)
    offs = tile.to(tl.int64) * TILE + tl.arange(0, TILE)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0, eviction_policy="evict_first")
    keep = x > 0
    rank = tl.cumsum(keep.to(tl.int32), axis=0) - 1
    kept = tl.sum(keep.to(tl.int32), axis=0)
    tl.atomic_xchg(state_ptr + tile, kept.to(tl.int64) | AGGREGATE_HIGH)

    start = tl.zeros([], dtype=tl.int32)
    end = tile
    searching = tile > 0
    while searching:
        idx = end - WINDOW + tl.arange(0, WINDOW)
        s = tl.load(state_ptr + idx, mask=idx >= 0, other=PREFIX_HIGH, volatile=True)
        flag = s >> 32
        last_prefix = tl.max(tl.where(flag == PREFIX, idx, NONE), axis=0)
        after = idx >= last_prefix
        ready = tl.sum(tl.where(after & (flag == 0), 1, 0), axis=0) == 0
        found = last_prefix > NONE
        start += tl.where(ready, tl.sum(tl.where(after, s.to(tl.int32), 0), axis=0), 0)
        end = tl.where(ready & (found == 0), end - WINDOW, end)
        searching = (ready & found) == 0

    tl.atomic_xchg(state_ptr + tile, (start + kept).to(tl.int64) | PREFIX_HIGH)
    tl.store(out_ptr + start + rank, x, mask=keep)
    if tile == tiles - 1:
        tl.store(count_ptr, start + kept)


def solve(x: torch.Tensor, out: torch.Tensor, count: torch.Tensor, n: int):
    TILE = 4096
    tiles = triton.cdiv(n, TILE)
    state = torch.zeros(tiles + 1, dtype=torch.int64, device=x.device)  # [tiles] = the ticket
    compact_kernel[(tiles,)](
        x, out, count, state, state[tiles:], n, tiles, TILE=TILE, WINDOW=32, num_warps=8
    )
