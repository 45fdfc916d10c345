"""Inclusive prefix sum in one pass: decoupled look-back, with the next tile's load in flight.

A one-pass scan is a chain of waits per tile: take a ticket, load the tile, publish its total,
look back for the carry, store. Each is a trip to memory, and a program that makes them one
after another leaves the memory system idle most of the time. Here a fixed grid of programs
(a few per SM) loops over tiles, and each program loads its *next* tile before it works on the
current one, so a tile's load is in flight during the previous tile's look-back.

Tiles are numbered by an atomic ticket in the order programs ask for them, and a program works
on its tickets in increasing order; every tile waits only for tiles with smaller tickets, so
the smallest unfinished tile can always finish: no deadlock, however many programs are
resident. The program holding a ticket publishes the tile's total ("aggregate") as soon as it
works on it, looks back over the preceding tiles WINDOW at a time (from the nearest one that
has published its inclusive prefix, that prefix plus the aggregates after it), publishes its
own inclusive prefix, then writes y. x is read once and y written once.

A tile's state is one int64: flag (0 nothing, 1 aggregate, 2 prefix) in the high 32 bits and
the int32 value in the low 32, written with one atomic exchange, so a reader never sees a flag
without its value. That is also why the atomics can be relaxed: no other memory is published
with them, and a relaxed exchange does not wait for the program's earlier stores of y."""

import torch
import triton
import triton.language as tl

AGGREGATE_HIGH = tl.constexpr(1 << 32)  # the flags, shifted into the high 32 bits
PREFIX_HIGH = tl.constexpr(2 << 32)
PREFIX = tl.constexpr(2)
NONE = tl.constexpr(-(2**31) + 1)  # "no prefix in this window": below every tile index

# A program holds two tiles in registers (the one it scans and the one arriving): 4096 ints
# over 4 warps compile to ~120 registers a thread, so four programs fit on an SM, with 64 KiB
# of x in flight or in hand per SM (sm_90, Triton 3.9's compiler).
TILE = 4096
PROGRAMS_PER_SM = 4


@triton.jit
def look_back(state_ptr, tile, WINDOW: tl.constexpr):
    """The sum of every tile before ``tile``, from their published states."""
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
    return carry


@triton.jit
def scan_kernel(
    x_ptr, y_ptr, state_ptr, ticket_ptr, n, tiles, TILE: tl.constexpr, WINDOW: tl.constexpr
):
    lanes = tl.arange(0, TILE)
    # Only scalars (a tile's first index) are carried from one tile to the next, not a vector
    # of 64-bit offsets: registers decide how many programs fit on an SM.
    tile = tl.atomic_add(ticket_ptr, 1, sem="relaxed")
    start = tile.to(tl.int64) * TILE
    x = tl.load(
        x_ptr + start + lanes, mask=lanes < n - start, other=0, eviction_policy="evict_first"
    )
    next_tile = tl.atomic_add(ticket_ptr, 1, sem="relaxed")
    while tile < tiles:
        # Start the next tile's load; it is not needed until the next iteration.
        next_start = next_tile.to(tl.int64) * TILE
        next_x = tl.load(
            x_ptr + next_start + lanes,
            mask=lanes < n - next_start,
            other=0,
            eviction_policy="evict_first",
        )
        after_next = tl.atomic_add(ticket_ptr, 1, sem="relaxed")

        total = tl.sum(x, axis=0)
        # The value's 32 bits, zero-extended (int32 -> uint32 keeps the bits; -> int64 pads zeros).
        tl.atomic_xchg(
            state_ptr + tile, total.to(tl.uint32).to(tl.int64) | AGGREGATE_HIGH, sem="relaxed"
        )
        carry = look_back(state_ptr, tile, WINDOW)
        inclusive = (carry + total).to(tl.uint32).to(tl.int64)
        tl.atomic_xchg(state_ptr + tile, inclusive | PREFIX_HIGH, sem="relaxed")
        tl.store(y_ptr + start + lanes, tl.cumsum(x, axis=0) + carry, mask=lanes < n - start)

        tile, start, x, next_tile = next_tile, next_start, next_x, after_next


def solve(x: torch.Tensor, y: torch.Tensor, n: int):
    tiles = triton.cdiv(n, TILE)
    sms = torch.cuda.get_device_properties(x.device).multi_processor_count if x.is_cuda else 132
    programs = min(tiles, sms * PROGRAMS_PER_SM)
    state = torch.zeros(tiles + 1, dtype=torch.int64, device=x.device)  # [tiles] = the ticket
    scan_kernel[(programs,)](
        x, y, state, state[tiles:], n, tiles, TILE=TILE, WINDOW=32, num_warps=4
    )
