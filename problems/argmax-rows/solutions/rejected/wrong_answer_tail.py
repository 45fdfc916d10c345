# expect: wrong_answer
# Bug: the chunk loop runs n // BLOCK times instead of cdiv(n, BLOCK), an off-by-one in the
# number of chunks: the last, partial chunk of every row is never read (and a row shorter
# than BLOCK is not read at all, so its lanes answer "nothing"). Right only when n is a
# multiple of BLOCK and no maximum sits in the tail; the "last" cases put every row's
# maximum in its last column.
import torch
import triton
import triton.language as tl


@triton.jit
def argmax_kernel(x_ptr, idx_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    best = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    where = tl.full([BLOCK], 0, dtype=tl.int32)
    for c in range(0, n // BLOCK):  # BUG: misses the partial chunk at the end
        offs = c * BLOCK + cols
        x = tl.load(x_ptr + row * n + offs)
        take = x > best
        best = tl.where(take, x, best)
        where = tl.where(take, offs, where)
    top = tl.max(best, axis=0)
    tl.store(idx_ptr + row, tl.min(tl.where(best == top, where, 2147483647), axis=0))


def solve(x: torch.Tensor, idx: torch.Tensor, m: int, n: int):
    argmax_kernel[(m,)](x, idx, n, BLOCK=256)
