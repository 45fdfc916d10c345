"""Stable key-value sort, least-significant digit first: eight passes of 4-bit digits, with
every step of a pass spread over the whole GPU.

The plain version scans its table of digit counts (16 x blocks entries) in one program: at
n = 2^26 that is a million entries in a row, slower than the scatter itself. Here a pass is:

1. count: each program counts the digits of a tile of TILE keys into the digit-major table
   counts[digit * tiles + tile];
2. scan rows: program d scans row d (digit d in every tile), exclusive, in place, and writes
   the row's total; then one program turns the 16 totals into each digit's base (where the
   digit's keys start in the output);
3. scatter: each program ranks its tile's elements among the earlier ones with the same
   digit (a cumulative sum over a one-hot [TILE, 16] matrix: the input order is kept, so the
   pass is stable) and writes each key and value to base[digit] + counts[digit, tile] + rank.
   A tile of 2048 holds ~128 keys per digit, which land in consecutive slots: the stores come
   in runs, not one address per lane.

The passes alternate between (keys, vals) and a scratch pair; eight is even, so the last pass
writes into keys and vals."""

import torch
import triton
import triton.language as tl

RADIX_BITS = 4
RADIX = 1 << RADIX_BITS


# `n` and `shift` are not specialised: Triton would compile a kernel per class of an int
# argument (== 1, a multiple of 16, other), and the 8 shifts and the tests' sizes made 28
# kernels where these 4 do (benchmarks/README.md, 'Compile cost'). Full tiles load
# without a mask, so they get 16-byte loads without knowing n % 16; the count table's rows
# have a stride padded to a multiple of 16 (`stride`, never 1), so its scan loads are aligned.
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
    onehot = (d[:, None] == tl.arange(0, RADIX)[None, :]) & mask[:, None]
    tl.store(counts_ptr + tl.arange(0, RADIX) * stride + tile, tl.sum(onehot.to(tl.int32), axis=0))


@triton.jit(do_not_specialize=["tiles"])
def scan_rows_kernel(counts_ptr, totals_ptr, tiles, stride, CHUNK: tl.constexpr):
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


@triton.jit(do_not_specialize=["n", "shift"])
def scatter_kernel(
    src_k, src_v, dst_k, dst_v, counts_ptr, base_ptr, n, stride, shift,
    TILE: tl.constexpr, RADIX: tl.constexpr,
):  # fmt: skip
    tile = tl.program_id(0)
    offs = tile.to(tl.int64) * TILE + tl.arange(0, TILE)
    mask = offs < n
    if (tile.to(tl.int64) + 1) * TILE <= n:
        k = tl.load(src_k + offs, eviction_policy="evict_first")
        v = tl.load(src_v + offs, eviction_policy="evict_first")
    else:
        k = tl.load(src_k + offs, mask=mask, other=0, eviction_policy="evict_first")
        v = tl.load(src_v + offs, mask=mask, other=0, eviction_policy="evict_first")
    d = ((k >> shift) & (RADIX - 1)).to(tl.int32)
    onehot = ((d[:, None] == tl.arange(0, RADIX)[None, :]) & mask[:, None]).to(tl.int32)
    rank = tl.sum((tl.cumsum(onehot, axis=0) - onehot) * onehot, axis=1)
    slot = (
        tl.load(base_ptr + d, mask=mask, other=0)
        + tl.load(counts_ptr + d * stride + tile, mask=mask, other=0)
        + rank
    )
    tl.store(dst_k + slot, k, mask=mask)
    tl.store(dst_v + slot, v, mask=mask)


def solve(keys: torch.Tensor, vals: torch.Tensor, n: int):
    TILE = 2048
    tiles = triton.cdiv(n, TILE)
    stride = triton.cdiv(tiles, 16) * 16  # a row of the count table: tiles, then padding
    counts = torch.empty(RADIX * stride, dtype=torch.int32, device=keys.device)
    base = torch.empty(RADIX, dtype=torch.int32, device=keys.device)
    src = (keys, vals)
    dst = (torch.empty_like(keys), torch.empty_like(vals))
    for shift in range(0, 32, RADIX_BITS):
        count_kernel[(tiles,)](
            src[0], counts, n, stride, shift, TILE=TILE, RADIX=RADIX, num_warps=8
        )
        scan_rows_kernel[(RADIX,)](counts, base, tiles, stride, CHUNK=1024)
        scan_totals_kernel[(1,)](base, RADIX=RADIX)
        scatter_kernel[(tiles,)](
            src[0], src[1], dst[0], dst[1], counts, base, n, stride, shift,
            TILE=TILE, RADIX=RADIX, num_warps=8,
        )  # fmt: skip
        src, dst = dst, src
