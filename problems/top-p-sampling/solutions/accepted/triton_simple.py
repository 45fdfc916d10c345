"""Top-p sampling without sorting: one program per row, and binary searches over probability
values instead of a sort.

Every probability is a whole number of units of 2^-24, so the program works in integers:
S(v), the mass of the tokens whose weight is at least v, is one pass over the row. Sorted
descending, the nucleus ends in the group of equal weights w* = the largest v with
S(v) >= P (P = ceil(p * 2^24)); above it lie A = S(w* + 1) units, so it takes the first
j = ceil((P - A) / w*) tokens of weight w*, by index, and its mass is A + j w*. The draw picks
the first token whose running mass exceeds t = u * mass: the same search again, for the
target min(floor(t * 2^24) + 1, mass), which lands on w* or above. The last pass finds the j-th token
of the chosen weight in index order."""

import triton
import triton.language as tl

ONE = 16777216  # 2^24: a probability of 1 in units


@triton.jit
def mass_from(row_ptr, vocab, v, BLOCK: tl.constexpr):
    # S(v): the units held by tokens of weight >= v
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    for start in range(0, vocab, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        w = (tl.load(row_ptr + cols, mask=cols < vocab, other=0.0) * 16777216.0).to(tl.int32)
        acc += tl.where(w >= v, w, 0)
    return tl.sum(acc, axis=0)


@triton.jit
def last_level(row_ptr, vocab, target, BLOCK: tl.constexpr):
    # the largest weight v with S(v) >= target: S(1) is the whole row, 2^24 >= target, and
    # S(2^24 + 1) = 0 < target
    lo = target * 0 + 1
    hi = target * 0 + 16777217
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if mass_from(row_ptr, vocab, mid, BLOCK) >= target:
            lo = mid
        else:
            hi = mid
    return lo


@triton.jit
def top_p_row(probs_ptr, top_p_ptr, u_ptr, token_ptr, vocab, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    row_ptr = probs_ptr + row.to(tl.int64) * vocab
    target = tl.math.ceil(tl.load(top_p_ptr + row) * 16777216.0).to(tl.int32)
    level = last_level(row_ptr, vocab, target, BLOCK)
    above = mass_from(row_ptr, vocab, level + 1, BLOCK)
    mass = above + (target - above + level - 1) // level * level
    t = tl.load(u_ptr + row) * (mass.to(tl.float32) * (1.0 / 16777216.0))
    goal = tl.minimum(tl.math.floor(t * 16777216.0).to(tl.int32) + 1, mass)
    pick = last_level(row_ptr, vocab, goal, BLOCK)  # >= level: goal <= mass <= S(level)
    nth = (goal - mass_from(row_ptr, vocab, pick + 1, BLOCK) + pick - 1) // pick
    # the nth token (in index order) of weight pick
    seen = 0
    found = vocab
    for start in range(0, vocab, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        w = (tl.load(row_ptr + cols, mask=cols < vocab, other=0.0) * 16777216.0).to(tl.int32)
        hit = w == pick  # pick >= 1: never a masked lane, whose w is 0
        rank = seen + tl.cumsum(hit.to(tl.int32), axis=0)
        found = tl.minimum(found, tl.min(tl.where(hit & (rank == nth), cols, vocab), axis=0))
        seen += tl.sum(hit.to(tl.int32), axis=0)
    tl.store(token_ptr + row, found)


def solve(probs, top_p, u, token, batch: int, vocab: int):
    BLOCK = min(1024, triton.next_power_of_2(vocab))
    top_p_row[(batch,)](probs, top_p, u, token, vocab, BLOCK=BLOCK)
