# expect: wrong_answer
# expect-message: rank 0: y
# Bug: the last rank passes the barriers but never reduces its slice: every rank's copy of that
# slice stays unwritten.
import triton
import triton.language as tl

BLOCK = 4096


@triton.jit
def accumulate(acc_ptr, src_ptr, lo, hi, FIRST: tl.constexpr, BLOCK: tl.constexpr):
    offs = lo + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < hi
    v = tl.load(src_ptr + offs, mask=mask)
    if not FIRST:
        v += tl.load(acc_ptr + offs, mask=mask)
    tl.store(acc_ptr + offs, v, mask=mask)


@triton.jit
def copy_slice(dst_ptr, src_ptr, lo, hi, BLOCK: tl.constexpr):
    offs = lo + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < hi
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)


def _slice(k, n, world):
    chunk = triton.cdiv(n, world)
    return min(k * chunk, n), min((k + 1) * chunk, n)


def solve(x, y, n, comm):
    rank, world = comm.rank, comm.world
    comm.barrier()
    lo, hi = _slice(rank, n, world)
    if hi > lo and rank != world - 1:  # the last rank leaves its share to nobody
        grid = (triton.cdiv(hi - lo, BLOCK),)
        for k in range(world):
            accumulate[grid](y, comm.peer(k, "x"), lo, hi, FIRST=k == 0, BLOCK=BLOCK)
    comm.barrier()
    for k in range(world):
        lo, hi = _slice(k, n, world)
        if k != rank and hi > lo:
            copy_slice[(triton.cdiv(hi - lo, BLOCK),)](y, comm.peer(k, "y"), lo, hi, BLOCK=BLOCK)
