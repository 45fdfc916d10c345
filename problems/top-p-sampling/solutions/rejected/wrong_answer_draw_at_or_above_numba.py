# expect: wrong_answer
# expect-message: p and u on partial sums
# Bug: the draw stops at the first token whose running mass reaches t (>= t), where the rule
# is the first that exceeds t: when t equals a partial sum, one token early. The fix: the
# target is floor(t * 2^24) + 1 units.
import math

from numba import cuda, float32

ONE = 16777216  # 2^24
THREADS = 32


@cuda.jit(device=True)
def mass_from(probs, row, vocab, v):
    total = 0
    for i in range(vocab):
        w = int(probs[row, i] * ONE)
        if w >= v:
            total += w
    return total


@cuda.jit(device=True)
def last_level(probs, row, vocab, target):
    lo = 1
    hi = ONE + 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if mass_from(probs, row, vocab, mid) >= target:
            lo = mid
        else:
            hi = mid
    return lo


@cuda.jit
def top_p_rows(probs, top_p, u, token, batch, vocab):
    row = cuda.grid(1)
    if row < batch:
        target = int(math.ceil(top_p[row] * float32(ONE)))
        level = last_level(probs, row, vocab, target)
        above = mass_from(probs, row, vocab, level + 1)
        mass = above + (target - above + level - 1) // level * level
        t = u[row] * (float32(mass) * float32(1.0 / ONE))
        goal = min(int(math.ceil(t * float32(ONE))), mass)  # BUG: reaches t, not exceeds it
        pick = last_level(probs, row, vocab, goal)
        nth = (goal - mass_from(probs, row, vocab, pick + 1) + pick - 1) // pick
        seen = 0
        for i in range(vocab):
            if int(probs[row, i] * ONE) == pick:
                seen += 1
                if seen == nth:
                    token[row] = i
                    return


def solve(probs, top_p, u, token, batch, vocab):
    top_p_rows[(batch + THREADS - 1) // THREADS, THREADS](probs, top_p, u, token, batch, vocab)
