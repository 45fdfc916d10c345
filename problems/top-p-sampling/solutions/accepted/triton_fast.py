"""Top-p sampling by radix select: the binary searches of the simple sample, four bits of the
weight at a time. One program per row; every probability is a whole number of units of 2^-24.

select(target) finds the largest weight v with S(v) >= target (S(v): the units held by tokens
of weight >= v) and S(v + 1), the units above it, in seven passes instead of twenty-five: each
pass takes the tokens whose weight agrees with the digits found so far, adds their weights
into sixteen buckets by the next four bits, and keeps the highest bucket whose mass, with
everything above it, still reaches the target. The nucleus ends in the group of weight w*,
whose first j = ceil((P - A) / w*) tokens by index it takes; the draw t = u * mass is a
second select, and a last pass finds the chosen token by its rank among equal weights."""

import triton
import triton.language as tl


@triton.jit
def weights(row_ptr, cols, vocab):
    # a probability as its whole number of 2^-24 units (exact: it lies on that grid)
    return (tl.load(row_ptr + cols, mask=cols < vocab, other=0.0) * 16777216.0).to(tl.int32)


@triton.jit
def select(row_ptr, vocab, target, BLOCK: tl.constexpr):
    digits = tl.arange(0, 16)
    prefix = target * 0
    above = target * 0
    for r in tl.static_range(7):
        shift = 24 - 4 * r  # a constant: r is static_range's
        hist = tl.zeros([16], dtype=tl.int32)
        for start in range(0, vocab, BLOCK):
            cols = start + tl.arange(0, BLOCK)
            w = weights(row_ptr, cols, vocab)
            # past the row w is 0, which adds nothing
            inside = (w >> (shift + 4)) == (prefix >> (shift + 4))
            bucket = (w >> shift) & 15
            hit = inside[:, None] & (bucket[:, None] == digits[None, :])
            hist += tl.sum(tl.where(hit, w[:, None], 0), axis=0)
        # the mass of buckets d and above, for each d
        suffix = tl.sum(tl.where(digits[None, :] >= digits[:, None], hist[None, :], 0), axis=1)
        d = tl.max(tl.where(above + suffix >= target, digits, 0), axis=0)
        above += tl.sum(tl.where(digits > d, hist, 0), axis=0)
        prefix += d << shift
    return prefix, above


@triton.jit
def top_p_row(probs_ptr, top_p_ptr, u_ptr, token_ptr, vocab, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    row_ptr = probs_ptr + row.to(tl.int64) * vocab
    target = tl.math.ceil(tl.load(top_p_ptr + row) * 16777216.0).to(tl.int32)
    level, above = select(row_ptr, vocab, target, BLOCK)
    mass = above + (target - above + level - 1) // level * level
    t = tl.load(u_ptr + row) * (mass.to(tl.float32) * (1.0 / 16777216.0))
    goal = tl.minimum(tl.math.floor(t * 16777216.0).to(tl.int32) + 1, mass)
    pick, below = select(row_ptr, vocab, goal, BLOCK)
    nth = (goal - below + pick - 1) // pick
    seen = 0
    found = vocab
    for start in range(0, vocab, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        hit = weights(row_ptr, cols, vocab) == pick  # pick >= 1: never a masked lane
        rank = seen + tl.cumsum(hit.to(tl.int32), axis=0)
        found = tl.minimum(found, tl.min(tl.where(hit & (rank == nth), cols, vocab), axis=0))
        seen += tl.sum(hit.to(tl.int32), axis=0)
    tl.store(token_ptr + row, found)


def solve(probs, top_p, u, token, batch: int, vocab: int):
    BLOCK = min(1024, triton.next_power_of_2(vocab))
    top_p_row[(batch,)](probs, top_p, u, token, vocab, BLOCK=BLOCK, num_warps=8)
