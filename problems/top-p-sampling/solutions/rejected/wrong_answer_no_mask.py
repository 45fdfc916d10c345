# expect: wrong_answer
# Bug: the loads of the row have no mask. When BLOCK does not divide vocab, the last block of
# a row reads the next row's first probabilities (and the last row reads past the end of
# probs), and they count in every mass: the nucleus ends early and the draw lands on the wrong
# token. Right only when BLOCK divides vocab. The fix: mask=cols < vocab, other=0.0.
import triton
import triton.language as tl

ONE = 16777216  # 2^24: a probability of 1 in units


@triton.jit
def mass_from(row_ptr, vocab, v, BLOCK: tl.constexpr):
    # S(v): the units held by tokens of weight >= v
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    for start in range(0, vocab, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        w = (tl.load(row_ptr + cols) * 16777216.0).to(tl.int32)  # BUG: no mask
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
        w = (tl.load(row_ptr + cols) * 16777216.0).to(tl.int32)  # BUG: no mask
        hit = (w == pick) & (cols < vocab)
        rank = seen + tl.cumsum(hit.to(tl.int32), axis=0)
        found = tl.minimum(found, tl.min(tl.where(hit & (rank == nth), cols, vocab), axis=0))
        seen += tl.sum(hit.to(tl.int32), axis=0)
    tl.store(token_ptr + row, found)


def solve(probs, top_p, u, token, batch: int, vocab: int):
    BLOCK = min(1024, triton.next_power_of_2(vocab))
    top_p_row[(batch,)](probs, top_p, u, token, vocab, BLOCK=BLOCK)
