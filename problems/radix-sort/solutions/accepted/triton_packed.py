"""Stable key-value sort, least-significant digit first: eight passes of 4-bit digits, with the
ranks counted in packed fields, several digits to a word.

A pass is a counting sort by one digit, every step spread over the whole GPU:

1. count: each program counts the digits of COUNT_TILE keys (``tl.histogram``) into the
   digit-major table counts[digit * stride + tile];
2. scan rows: program d scans row d of the table (digit d in every tile), exclusive, in
   place, and writes its total; then one program turns the 16 totals into each digit's base
   (where its keys start);
3. scatter: each key goes to base[digit] + counts[digit, tile] + rank, its rank being how
   many earlier keys of the tile have the same digit (input order: the pass is stable).

The scatter's tile may be any multiple of COUNT_TILE: after the scan, the entry of its first
count tile is the number of keys of the digit in all earlier tiles, whatever their size. So
the count table stays at one size and the scatter's tile and warps are autotuned.

The rank is where the time goes. A one-hot [TILE, 16] matrix and its cumulative sum down the
tile hold 16 counters per key, and compile to a kernel that spills. Here the counters are
packed, several to an int64, so that one cumulative sum counts several digits at once:

- within a row of ROW = 128 consecutive keys, 8-bit fields (a row never fills one): digits
  0-7 in one word, 8-15 in another, so two cumulative sums along the row (inside one warp)
  give every key the count of its digit among the earlier keys of its row;
- across rows, each row's totals widened to 16-bit fields (a tile below 2^16 never fills
  one), four digits a word, summed over the rows before it (a cumulative sum over the rows).

A key's rank is its own field of its own word in each. A tile of 4096 holds ~256 keys per
digit, which land in consecutive slots: the stores come in runs, not one address per lane.

The passes alternate between (keys, vals) and a scratch pair; eight is even, so the last pass
writes into keys and vals."""

import torch
import triton
import triton.language as tl

RADIX_BITS = 4
RADIX = 1 << RADIX_BITS
# Keys per program of the count kernel, and per entry of the count table. The scatter's tile
# (autotuned, below) is a multiple of it, below 2^16 so that a 16-bit field never overflows.
COUNT_TILE = 2048
ROW = 128  # keys per row of a tile; below 2^8, so an 8-bit field never overflows


# `n` and `shift` are not specialised (Triton compiles a kernel per class of an int argument:
# == 1, a multiple of 16, other; the 8 shifts and the tests' sizes made 31 kernels), and the
# count table's rows have a stride padded to a multiple of 16 (`stride`, never 1). Full tiles
# load without a mask, so they get 16-byte loads without knowing n % 16.
@triton.jit(do_not_specialize=["n", "shift"])
def count_kernel(keys_ptr, counts_ptr, n, stride, shift, TILE: tl.constexpr, RADIX: tl.constexpr):
    tile = tl.program_id(0)
    offs = tile.to(tl.int64) * TILE + tl.arange(0, TILE)
    mask = offs < n
    if (tile.to(tl.int64) + 1) * TILE <= n:
        k = tl.load(keys_ptr + offs, eviction_policy="evict_last")
    else:  # the last tile
        k = tl.load(keys_ptr + offs, mask=mask, other=0, eviction_policy="evict_last")
    d = ((k >> shift) & (RADIX - 1)).to(tl.int32)
    tl.store(counts_ptr + tl.arange(0, RADIX) * stride + tile, tl.histogram(d, RADIX, mask=mask))


@triton.jit(do_not_specialize=["tiles"])
def scan_rows_kernel(counts_ptr, totals_ptr, tiles, stride, CHUNK: tl.constexpr):
    # Program d scans row d of the count table (digit d in every tile), CHUNK tiles at a time.
    row = counts_ptr + tl.program_id(0).to(tl.int64) * stride
    carry = tl.zeros([], dtype=tl.int32)
    for start in range(0, stride, CHUNK):
        offs = start + tl.arange(0, CHUNK)
        mask = offs < stride  # whole rows: aligned 16-byte loads and stores
        c = tl.where(offs < tiles, tl.load(row + offs, mask=mask, other=0), 0)  # padding: 0
        tl.store(row + offs, carry + tl.cumsum(c, axis=0) - c, mask=mask)  # exclusive
        carry += tl.sum(c, axis=0)
    tl.store(totals_ptr + tl.program_id(0), carry)


@triton.jit
def scan_totals_kernel(totals_ptr, RADIX: tl.constexpr):
    t = tl.load(totals_ptr + tl.arange(0, RADIX))
    tl.store(totals_ptr + tl.arange(0, RADIX), tl.cumsum(t, axis=0) - t)  # each digit's base


@triton.jit
def spread_bytes(t):
    """Four 8-bit fields (the low 32 bits of t) spread into four 16-bit fields."""
    return (
        (t & 0xFF) | ((t >> 8) & 0xFF) << 16 | ((t >> 16) & 0xFF) << 32 | ((t >> 24) & 0xFF) << 48
    )


@triton.jit
def field_of(words0, words1, words2, words3, d, width: tl.constexpr):
    """Digit d's field (of ``width`` bits) in the word that holds it (4 fields a word)."""
    w = d >> 2
    word = tl.where(w == 0, words0, tl.where(w == 1, words1, tl.where(w == 2, words2, words3)))
    return ((word >> ((d & 3) * width).to(tl.int64)) & ((1 << width) - 1)).to(tl.int32)


# A pass took ~2.4 ms on an H100 against ~0.5 ms of traffic: the scatter waits more than it
# moves. A tile waits for its keys, then for the counts and bases its digits pick, then
# stores, with a dozen barriers between, and registers decide how many warps an SM has to hide
# that. Registers a thread (ptxas, sm_90, Triton 3.9; 3.6 in brackets)
# and programs an SM (65536 registers): 4096 keys over 16 warps 95 [88] -> 1 program (16
# warps); over 32 warps 64 [64] -> 1 (32 warps); 2048 over 16 warps 58 [63] -> 2 (32 warps);
# 2048 over 8 warps 102 [80] -> 2 [3] (16 [24] warps).
# Which hides more depends on the GPU, so the benchmark's first (untimed) call tunes; the
# tests and the interpreter run the first config. A trial only reads src and writes dst, so
# trials need no reset.
@triton.autotune(
    configs=[
        triton.Config({"TILE": 4096}, num_warps=32),
        triton.Config({"TILE": 4096}, num_warps=16),
        triton.Config({"TILE": 2048}, num_warps=16),
        triton.Config({"TILE": 2048}, num_warps=8),
    ],
    key=["n"],
)
@triton.jit(do_not_specialize=["n", "shift"])
def scatter_kernel(
    src_k, src_v, dst_k, dst_v, counts_ptr, base_ptr, n, stride, shift,
    TILE: tl.constexpr, COUNT_TILE: tl.constexpr, RADIX: tl.constexpr, ROW: tl.constexpr,
):  # fmt: skip
    # The tile as [TILE // ROW, ROW]: rows of ROW consecutive keys, each row inside one warp.
    tile = tl.program_id(0)
    offs = tile.to(tl.int64) * TILE + (
        tl.arange(0, TILE // ROW)[:, None] * ROW + tl.arange(0, ROW)[None, :]
    )
    mask = offs < n
    if (tile.to(tl.int64) + 1) * TILE <= n:
        k = tl.load(src_k + offs, eviction_policy="evict_first")
        v = tl.load(src_v + offs, eviction_policy="evict_first")
    else:  # the last tile
        k = tl.load(src_k + offs, mask=mask, other=0, eviction_policy="evict_first")
        v = tl.load(src_v + offs, mask=mask, other=0, eviction_policy="evict_first")
    d = ((k >> shift) & (RADIX - 1)).to(tl.int32)
    # Within a row: 8-bit fields (a row of 128 never fills one), digits 0-7 in one int64 and
    # 8-15 in another. The cumulative sum along the row counts every digit at once.
    one = tl.where(mask, tl.full(d.shape, 1, tl.int64) << ((d & 7) * 8).to(tl.int64), 0)
    low = tl.where(d < 8, one, 0)
    high = tl.where(d < 8, 0, one)
    before = tl.where(d < 8, tl.cumsum(low, axis=1) - low, tl.cumsum(high, axis=1) - high)
    rank = ((before >> ((d & 7) * 8).to(tl.int64)) & 0xFF).to(tl.int32)
    # Across rows: each row's digit counts, widened to 16-bit fields (a tile of 4096 never
    # fills one), and summed over the rows before it.
    low_total = tl.sum(low, axis=1)
    high_total = tl.sum(high, axis=1)
    w0 = spread_bytes(low_total)
    w1 = spread_bytes(low_total >> 32)
    w2 = spread_bytes(high_total)
    w3 = spread_bytes(high_total >> 32)
    w0 = (tl.cumsum(w0, axis=0) - w0)[:, None]
    w1 = (tl.cumsum(w1, axis=0) - w1)[:, None]
    w2 = (tl.cumsum(w2, axis=0) - w2)[:, None]
    w3 = (tl.cumsum(w3, axis=0) - w3)[:, None]
    rank += field_of(w0, w1, w2, w3, d, 16)
    slot = (
        tl.load(base_ptr + d, mask=mask, other=0)
        # The table counts COUNT_TILE keys an entry: this tile's first entry.
        + tl.load(counts_ptr + d * stride + tile * (TILE // COUNT_TILE), mask=mask, other=0)
        + rank
    )
    tl.store(dst_k + slot, k, mask=mask)
    tl.store(dst_v + slot, v, mask=mask)


def solve(keys: torch.Tensor, vals: torch.Tensor, n: int):
    tiles = triton.cdiv(n, COUNT_TILE)
    stride = triton.cdiv(tiles, 16) * 16  # a row of the count table: tiles, then padding
    counts = torch.empty(RADIX * stride, dtype=torch.int32, device=keys.device)
    base = torch.empty(RADIX, dtype=torch.int32, device=keys.device)
    src = (keys, vals)
    dst = (torch.empty_like(keys), torch.empty_like(vals))

    def grid(meta):
        return (triton.cdiv(n, meta["TILE"]),)

    for shift in range(0, 32, RADIX_BITS):
        count_kernel[(tiles,)](
            src[0], counts, n, stride, shift, TILE=COUNT_TILE, RADIX=RADIX, num_warps=8
        )
        scan_rows_kernel[(RADIX,)](counts, base, tiles, stride, CHUNK=4096, num_warps=8)
        scan_totals_kernel[(1,)](base, RADIX=RADIX)
        scatter_kernel[grid](
            src[0], src[1], dst[0], dst[1], counts, base, n, stride, shift,
            COUNT_TILE=COUNT_TILE, RADIX=RADIX, ROW=ROW,
        )  # fmt: skip
        src, dst = dst, src
