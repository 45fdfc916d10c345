# expect: runtime_error
# expect-message: comm.peer: rank must be an int from 0 to 1, got 2
# Bug: the peer's rank computed as world - rank instead of (rank + 1) % world: rank 0 asks for
# rank 2, which does not exist; comm.peer refuses it, and the grading names the rank.
import triton
import triton.language as tl


@triton.jit
def add2(out_ptr, a_ptr, b_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def solve(x, y, n, comm):
    comm.barrier()
    other = comm.peer(comm.world - comm.rank, "x")  # wrong: ranks run from 0 to world - 1
    add2[(triton.cdiv(n, 1024),)](y, x, other, n, BLOCK=1024)
