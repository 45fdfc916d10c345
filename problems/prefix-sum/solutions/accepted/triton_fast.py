"""Inclusive prefix sum in one pass: a tile scan with decoupled look-back.

Each program takes a ticket from an atomic counter (tickets follow the order in which
programs start, so every tile's predecessors are already running or done: waiting on them
cannot deadlock), loads its tile of TILE elements, scans it with tl.cumsum, and publishes
its total at once ("aggregate"). It then looks back over its predecessors, WINDOW at a time:
from the nearest one that has published an inclusive prefix ("prefix") it adds that prefix
and the aggregates of the tiles after it; if a tile in between has published nothing yet, it
reads the window again. With the carry known it publishes its own inclusive prefix and
writes y. x is read once and y written once: the minimum traffic.

A tile's state is one int64: flag (0 nothing, 1 aggregate, 2 prefix) in the high 32 bits and
the int32 value in the low 32, written with one atomic exchange, so a reader never sees a
flag without its value."""

import torch
import triton
import triton.language as tl

AGGREGATE = tl.constexpr(1)
PREFIX = tl.constexpr(2)
AGGREGATE_HIGH = tl.constexpr(1 << 32)  # the flags, shifted into the high 32 bits
PREFIX_HIGH = tl.constexpr(2 << 32)
NONE = tl.constexpr(-(2**31) + 1)  # "no prefix in this window": below every tile index


@triton.jit
def scan_kernel(x_ptr, y_ptr, state_ptr, ticket_ptr, n, TILE: tl.constexpr, WINDOW: tl.constexpr):
    tile = tl.atomic_add(ticket_ptr, 1)
    offs = tile.to(tl.int64) * TILE + tl.arange(0, TILE)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0, eviction_policy="evict_first")
    local = tl.cumsum(x, axis=0)
    total = tl.sum(x, axis=0)
    # The value's 32 bits, zero-extended (int32 -> uint32 keeps the bits; -> int64 pads zeros).
    tl.atomic_xchg(state_ptr + tile, total.to(tl.uint32).to(tl.int64) | AGGREGATE_HIGH)

    carry = tl.zeros([], dtype=tl.int32)
    end = tile  # look at tiles [end - WINDOW, end)
    searching = tile > 0
    while searching:
        idx = end - WINDOW + tl.arange(0, WINDOW)
        # Tiles before 0 read as a prefix of 0: the search always stops there.
        s = tl.load(state_ptr + idx, mask=idx >= 0, other=PREFIX_HIGH, volatile=True)
        flag = s >> 32
        value = s.to(tl.int32)  # the low 32 bits
        last_prefix = tl.max(tl.where(flag == PREFIX, idx, NONE), axis=0)
        after = idx >= last_prefix  # the nearest prefix and the aggregates after it
        ready = tl.sum(tl.where(after & (flag == 0), 1, 0), axis=0) == 0
        found = last_prefix > NONE
        # Not ready: read the same window again. Ready: take it, and stop at a prefix.
        carry += tl.where(ready, tl.sum(tl.where(after, value, 0), axis=0), 0)
        end = tl.where(ready & (found == 0), end - WINDOW, end)
        searching = (ready & found) == 0

    inclusive = (carry + total).to(tl.uint32).to(tl.int64)
    tl.atomic_xchg(state_ptr + tile, inclusive | PREFIX_HIGH)
    tl.store(y_ptr + offs, local + carry, mask=mask)


def solve(x: torch.Tensor, y: torch.Tensor, n: int):
    TILE = 4096
    tiles = triton.cdiv(n, TILE)
    state = torch.zeros(tiles + 1, dtype=torch.int64, device=x.device)  # [tiles] = the ticket
    scan_kernel[(tiles,)](x, y, state, state[tiles:], n, TILE=TILE, WINDOW=32, num_warps=8)
