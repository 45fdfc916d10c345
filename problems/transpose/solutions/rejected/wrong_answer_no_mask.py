# expect: wrong_answer
# expect-message: y: wrote past the end
# Bug: the store is masked in one dimension only. Loads are masked properly, and the store
# checks that the row of y exists (rn < n) but not its column (rm < m): where m is not a
# multiple of 32, the last tile column writes past the end of each row of y, into the next
# row, and from the last row past the end of y. The values inside y may even come out right
# where a later tile overwrites them; the writes past its end are the bug (on a GPU they
# overwrite a neighbour's data). The fix: mask the store with both bounds.
import torch
import triton
import triton.language as tl


@triton.jit
def transpose_tiles(x_ptr, y_ptr, m, n, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    inside = (rm[:, None] < m) & (rn[None, :] < n)
    tile = tl.load(x_ptr + rm[:, None] * n + rn[None, :], mask=inside, other=0.0)
    tl.store(y_ptr + rn[:, None] * m + rm[None, :], tl.trans(tile), mask=rn[:, None] < n)


def solve(x: torch.Tensor, y: torch.Tensor, m: int, n: int):
    BM, BN = 32, 32
    transpose_tiles[(triton.cdiv(m, BM), triton.cdiv(n, BN))](x, y, m, n, BM=BM, BN=BN)
