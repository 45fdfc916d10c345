"""Inclusive prefix sum in one pass: a tile scan with decoupled look-back.

Each program takes a ticket from an atomic counter (tickets follow the order in which
programs start, so every tile's predecessors are already running or done: waiting on them
cannot deadlock; the interpreter, which runs programs one after another, finds every
predecessor finished), loads its tile of TILE elements and publishes the tile's total at once
("aggregate"). It then looks back over its predecessors, WINDOW at a time: from the nearest
one that has published an inclusive prefix ("prefix") it adds that prefix and the aggregates
of the tiles after it; if a tile in between has published nothing yet, it reads the window
again. With the carry known it publishes its own inclusive prefix, scans the tile with
tl.cumsum and writes y. x is read once and y written once: the minimum traffic.

A tile's state is one int64: flag (0 nothing, 1 aggregate, 2 prefix) in the high 32 bits and
the int32 value in the low 32, written with one atomic exchange, so a reader never sees a
flag without its value. That is also why every atomic is relaxed: no other memory is published
with a state, and an acquire-release atomic costs a fence (MEMBAR.ALL.GPU) and an L1
invalidation (CCTL.IVALL) in the compiled code, three times per tile.

Speed comes from tiles in flight. A program spends most of its life waiting (for its ticket,
its tile's load, its predecessors), so an SM hides that only with many resident programs,
and registers decide how many fit. Two choices keep them few: the tile's indices are int32
lanes added to one int64 base (a vector of int64 offsets costs two registers an element), and
the tile and warp count are autotuned (their registers from ptxas for sm_90 in the comments).
"""

import torch
import triton
import triton.language as tl

AGGREGATE_HIGH = tl.constexpr(1 << 32)  # the flags, shifted into the high 32 bits
PREFIX_HIGH = tl.constexpr(2 << 32)
PREFIX = tl.constexpr(2)
NONE = tl.constexpr(-(2**31) + 1)  # "no prefix in this window": below every tile index

# The smallest TILE among the configs sizes the state array (one word per tile, then the ticket).
MIN_TILE = 2048


@triton.jit
def look_back(state_ptr, tile, WINDOW: tl.constexpr):
    """The sum of every tile before ``tile``, from their published states."""
    carry = tl.zeros([], dtype=tl.int32)
    end = tile  # look at tiles [end - WINDOW, end)
    searching = tile > 0
    while searching:
        idx = end - WINDOW + tl.arange(0, WINDOW)
        # Tiles before 0 read as a prefix of 0: the search always stops there. Volatile: every
        # read goes to memory, so a spin sees a predecessor's new state.
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


# Registers a thread (ptxas, sm_90, Triton 3.9) and resident programs an SM (65536 registers):
# 4096/4 warps 63 -> 8 programs (128 KiB of x per SM, as cuda_fast.cu's 32 registers x 256
# threads); 4096/8 warps 47 -> 5 (Triton 3.6: 40 -> 6); 8192/8 warps 79 -> 3; 2048/4 warps
# 39 -> 12. The first config is the one the interpreter and the tests run.
@triton.autotune(
    configs=[
        triton.Config({"TILE": 4096}, num_warps=4),
        triton.Config({"TILE": 4096}, num_warps=8),
        triton.Config({"TILE": 8192}, num_warps=8),
        triton.Config({"TILE": 2048}, num_warps=4),
    ],
    key=["n"],
    reset_to_zero=["state_ptr"],  # every timed trial starts from fresh flags and ticket
)
@triton.jit
def scan_kernel(x_ptr, y_ptr, state_ptr, ticket_ptr, n, TILE: tl.constexpr, WINDOW: tl.constexpr):
    tile = tl.atomic_add(ticket_ptr, 1, sem="relaxed")
    start = tile.to(tl.int64) * TILE
    lanes = tl.arange(0, TILE)
    mask = lanes < tl.minimum(n - start, TILE).to(tl.int32)  # the last tile ends early
    x = tl.load(x_ptr + start + lanes, mask=mask, other=0, eviction_policy="evict_first")
    total = tl.sum(x, axis=0)
    # The value's 32 bits, zero-extended (int32 -> uint32 keeps the bits; -> int64 pads zeros).
    aggregate = total.to(tl.uint32).to(tl.int64) | AGGREGATE_HIGH
    tl.atomic_xchg(state_ptr + tile, aggregate, sem="relaxed")

    carry = look_back(state_ptr, tile, WINDOW)
    inclusive = (carry + total).to(tl.uint32).to(tl.int64) | PREFIX_HIGH
    tl.atomic_xchg(state_ptr + tile, inclusive, sem="relaxed")
    tl.store(y_ptr + start + lanes, tl.cumsum(x, axis=0) + carry, mask=mask)


def solve(x: torch.Tensor, y: torch.Tensor, n: int):
    # Tile states [0, slots), then the ticket; zeroed for every call (and by reset_to_zero
    # for every trial while tuning, which zeroes the whole tensor, the ticket included). An
    # even slot count keeps the ticket 16-byte aligned at every n: one specialisation fewer.
    slots = 2 * triton.cdiv(n, 2 * MIN_TILE)
    state = torch.zeros(slots + 2, dtype=torch.int64, device=x.device)
    ticket = state[slots:].view(torch.int32)[:1]  # the low half of that word

    def grid(meta):
        return (triton.cdiv(n, meta["TILE"]),)

    scan_kernel[grid](x, y, state, ticket, n, WINDOW=32)
