# expect: wrong_answer
# expect-message: NaN
# Bug: no barrier before reading the peers' x. A peer's input holds its data only once that
# rank has been called; the judge runs the ranks one at a time, so the rank that runs first
# reads a peer's x before it is written (on GPUs: before the peer's producer wrote it).
import triton
import triton.language as tl

BLOCK = 4096


@triton.jit
def accumulate(acc_ptr, src_ptr, n, FIRST: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(src_ptr + offs, mask=mask)
    if not FIRST:
        v += tl.load(acc_ptr + offs, mask=mask)
    tl.store(acc_ptr + offs, v, mask=mask)


def solve(x, y, n, comm):
    grid = (triton.cdiv(n, BLOCK),)
    for k in range(comm.world):  # every rank sums everything itself, without waiting
        accumulate[grid](y, comm.peer(k, "x"), n, FIRST=k == 0, BLOCK=BLOCK)
