"""Stable key-value sort, least-significant digit first: eight passes of 4-bit digits, with the
ranks counted in packed fields, several digits to a word.

A pass is a counting sort by one digit, every step spread over the whole GPU:

1. count: each program counts the digits of a tile of TILE keys (``tl.histogram``) into the
   digit-major table counts[digit * tiles + tile];
2. scan rows: each row of the table (digit d in every tile) is scanned, exclusive, in place,
   and its total written (a program per row; one for all 16 when the rows are short); then
   one program turns the 16 totals into each digit's base (where its keys start);
3. scatter: each key goes to base[digit] + counts[digit, tile] + rank, its rank being how
   many earlier keys of the tile have the same digit (input order: the pass is stable).

The rank is where the time goes. A one-hot [TILE, 16] matrix and its cumulative sum down the
tile hold 16 counters per key, and compile to a kernel that spills. Here the counters are
packed, several to an int64, so that one cumulative sum counts several digits at once:

- within a row of ROW = 128 consecutive keys, 8-bit fields (a row never fills one): digits
  0-7 in one word, 8-15 in another, so two cumulative sums along the row (inside one warp)
  give every key the count of its digit among the earlier keys of its row;
- across rows, each row's totals widened to 16-bit fields (a tile of 4096 never fills one),
  four digits a word, summed over the rows before it (a cumulative sum over 32 rows).

A key's rank is its own field of its own word in each. A tile of 4096 holds ~256 keys per
digit, which land in consecutive slots: the stores come in runs, not one address per lane.

The passes alternate between (keys, vals) and a scratch pair; eight is even, so the last pass
writes into keys and vals."""

import torch
import triton
import triton.language as tl

RADIX_BITS = 4
RADIX = 1 << RADIX_BITS
TILE = 4096  # keys per program; below 2^16, so a 16-bit field never overflows
ROW = 128  # keys per row of a tile; below 2^8, so an 8-bit field never overflows


@triton.jit
def count_kernel(keys_ptr, counts_ptr, n, tiles, shift, TILE: tl.constexpr, RADIX: tl.constexpr):
    tile = tl.program_id(0)
    offs = tile.to(tl.int64) * TILE + tl.arange(0, TILE)
    mask = offs < n
    k = tl.load(keys_ptr + offs, mask=mask, other=0, eviction_policy="evict_last")
    d = ((k >> shift) & (RADIX - 1)).to(tl.int32)
    tl.store(counts_ptr + tl.arange(0, RADIX) * tiles + tile, tl.histogram(d, RADIX, mask=mask))


@triton.jit
def scan_rows_kernel(counts_ptr, totals_ptr, tiles, ROWS: tl.constexpr, CHUNK: tl.constexpr):
    # Rows [ROWS * pid, ROWS * (pid + 1)) of the count table, CHUNK tiles at a time.
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    row = counts_ptr + rows.to(tl.int64)[:, None] * tiles
    carry = tl.zeros([ROWS], dtype=tl.int32)
    for start in range(0, tiles, CHUNK):
        offs = start + tl.arange(0, CHUNK)[None, :]
        mask = offs < tiles
        c = tl.load(row + offs, mask=mask, other=0)
        tl.store(row + offs, carry[:, None] + tl.cumsum(c, axis=1) - c, mask=mask)  # exclusive
        carry += tl.sum(c, axis=1)
    tl.store(totals_ptr + rows, carry)


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


@triton.jit
def scatter_kernel(
    src_k, src_v, dst_k, dst_v, counts_ptr, base_ptr, n, tiles, shift,
    TILE: tl.constexpr, RADIX: tl.constexpr, ROW: tl.constexpr,
):  # fmt: skip
    # The tile as [TILE // ROW, ROW]: rows of ROW consecutive keys, each row inside one warp.
    tile = tl.program_id(0)
    offs = tile.to(tl.int64) * TILE + (
        tl.arange(0, TILE // ROW)[:, None] * ROW + tl.arange(0, ROW)[None, :]
    )
    mask = offs < n
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
        + tl.load(counts_ptr + d * tiles + tile, mask=mask, other=0)
        + rank
    )
    tl.store(dst_k + slot, k, mask=mask)
    tl.store(dst_v + slot, v, mask=mask)


def solve(keys: torch.Tensor, vals: torch.Tensor, n: int):
    tiles = triton.cdiv(n, TILE)
    # The count table has RADIX rows of `tiles`: one program scans them all when they are short
    # (a few tiles), one program per row in chunks of 4096 when they are long.
    chunk = min(4096, triton.next_power_of_2(tiles))
    rows = RADIX if tiles <= 256 else 1
    counts = torch.empty(RADIX * tiles, dtype=torch.int32, device=keys.device)
    base = torch.empty(RADIX, dtype=torch.int32, device=keys.device)
    src = (keys, vals)
    dst = (torch.empty_like(keys), torch.empty_like(vals))
    for shift in range(0, 32, RADIX_BITS):
        count_kernel[(tiles,)](src[0], counts, n, tiles, shift, TILE=TILE, RADIX=RADIX, num_warps=8)
        scan_rows_kernel[(RADIX // rows,)](counts, base, tiles, ROWS=rows, CHUNK=chunk, num_warps=8)
        scan_totals_kernel[(1,)](base, RADIX=RADIX)
        scatter_kernel[(tiles,)](
            src[0], src[1], dst[0], dst[1], counts, base, n, tiles, shift,
            TILE=TILE, RADIX=RADIX, ROW=ROW, num_warps=16,
        )  # fmt: skip
        src, dst = dst, src
