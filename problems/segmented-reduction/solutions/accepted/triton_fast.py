"""Segmented sum balanced by elements, not segments: every program gets the same B elements.

Segment lengths range from empty to millions, so giving segments to programs leaves most of
the GPU waiting for the few with long ones. Here program c takes elements [c·B, (c + 1)·B),
whatever segments they belong to:

1. ``zero_fill`` zeroes out (empty segments stay 0; segments split between programs are
   added into).
2. ``chunk_segments`` finds, for every chunk, the segment of its first element (the last s
   with offsets[s] <= c·B), and the segment of the last element after them: a vectorised
   binary search of offsets, one lane per chunk.
3. ``segment_chunks`` loads its B elements (contiguous, coalesced) and gives each one its
   segment by a binary search between the segments of its chunk's first and last elements,
   usually a few apart (none to search inside a long segment). A prefix sum of the chunk in
   float64 (``tl.cumsum``) then gives each segment's part as the difference of two prefixes,
   the one before its first element fetched with ``tl.gather``. (In float32 that difference
   would lose a small segment that follows large ones: the prefix's rounding, 2^-24 of the
   prefix, can exceed the segment itself.) A segment that lies wholly inside the chunk is
   stored from its last element; the chunk's first and last segments may continue next door
   and are added with an atomic: a segment of 2^22 elements costs 2048 atomic adds, one per
   chunk.
"""

import torch
import triton
import triton.language as tl

B = 2048  # elements per program


@triton.jit
def zero_fill(out_ptr, segments, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32), mask=offs < segments)


@triton.jit
def last_segment_at_most(offsets_ptr, target, a, b):
    """Per lane, the last segment s in [a, b] with offsets[s] <= target (offsets[a] <= target)."""
    while tl.max(b - a, axis=0) > 0:
        mid = (a + b + 1) // 2  # a lane already done (a == b) probes a itself and stays
        below = tl.load(offsets_ptr + mid) <= target
        a = tl.where(below, mid, a)
        b = tl.where(below, b, mid - 1)
    return a


@triton.jit
def chunk_segments(offsets_ptr, first_ptr, n, segments, chunks, LANES: tl.constexpr, B: tl.constexpr):
    # first[c] for c = 0 .. chunks: the segment of element c·B, and for c = chunks the
    # segment of the last element, n - 1 (the last chunk's last segment).
    c = tl.program_id(0) * LANES + tl.arange(0, LANES)
    a = tl.zeros([LANES], dtype=tl.int32)
    b = tl.zeros([LANES], dtype=tl.int32) + (segments - 1)
    first = last_segment_at_most(offsets_ptr, tl.minimum(c * B, n - 1), a, b)
    tl.store(first_ptr + c, first, mask=c <= chunks)


@triton.jit
def segment_chunks(x_ptr, offsets_ptr, out_ptr, first_ptr, n, B: tl.constexpr):
    c = tl.program_id(0)
    base = c * B
    pos = tl.arange(0, B)
    idx = base + pos
    live = idx < n
    # Lanes past n come after every live one: the prefix sum never carries them back, so they
    # need no other=.
    x = tl.load(x_ptr + idx, mask=live, eviction_policy="evict_first").to(tl.float64)
    # An element's segment lies between the chunk's first segment and the next chunk's
    # (elements past n act as the last element).
    lo = tl.zeros([B], dtype=tl.int32) + tl.load(first_ptr + c)
    hi = tl.zeros([B], dtype=tl.int32) + tl.load(first_ptr + c + 1)
    seg = last_segment_at_most(offsets_ptr, tl.minimum(idx, n - 1), lo, hi)
    seg_start = tl.load(offsets_ptr + seg)
    seg_end = tl.load(offsets_ptr + seg + 1)
    # The chunk's prefix sums, in float64: a segment's part in the chunk is the prefix at its
    # last element less the prefix before its first, and float64's rounding (2^-53 of at most
    # B elements' magnitudes) stays far below float32's on even the smallest segment.
    prefix = tl.cumsum(x, axis=0)
    first = tl.maximum(seg_start, base) - base  # the segment's first element in the chunk
    before = tl.gather(prefix - x, first, 0)
    total = (prefix - before).to(tl.float32)

    true_end = seg_end == idx + 1
    last = live & (true_end | (pos == B - 1))
    whole = true_end & (seg_start >= base)  # the segment lies inside this chunk: no one else adds to it
    tl.store(out_ptr + seg, total, mask=last & whole)
    tl.atomic_add(out_ptr + seg, total, mask=last & ~whole, sem="relaxed")


def solve(x: torch.Tensor, offsets: torch.Tensor, out: torch.Tensor, n: int, segments: int):
    chunks = triton.cdiv(n, B)
    first = torch.empty(chunks + 1, dtype=torch.int32, device=out.device)
    zero_fill[(triton.cdiv(segments, 256),)](out, segments, BLOCK=256)
    lanes = 16
    chunk_segments[(triton.cdiv(chunks + 1, lanes),)](offsets, first, n, segments, chunks, LANES=lanes, B=B)
    segment_chunks[(chunks,)](x, offsets, out, first, n, B=B, num_warps=8)
