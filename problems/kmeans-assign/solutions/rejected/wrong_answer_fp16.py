# expect: wrong_answer
# Bug: distances summed in float16 ("it's only for comparing"). float16 keeps 11 significant
# bits: past 32 it cannot hold the 1/64 steps these distances move in, and past 2048 it rounds
# to multiples of 2, so distinct distances compare equal (and the first index wins a tie that
# is not one) or swap order. The fix: a float32 accumulator.
import triton
import triton.language as tl


@triton.jit
def assign(points_ptr, centroids_ptr, labels_ptr, n, k, d, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    dims = tl.arange(0, BLOCK_D)
    live = rows < n
    on_d = dims < d
    x = tl.load(points_ptr + rows[:, None].to(tl.int64) * d + dims[None, :], mask=live[:, None] & on_d[None, :], other=0.0)
    best = tl.full([BLOCK_N], float("inf"), dtype=tl.float16)
    where = tl.zeros([BLOCK_N], dtype=tl.int32)
    for j in range(0, k):
        c = tl.load(centroids_ptr + j * d + dims, mask=on_d, other=0.0)
        diff = (x - c[None, :]).to(tl.float16)
        dist = tl.sum(diff * diff, axis=1)  # BUG: a float16 sum
        nearer = dist < best
        best = tl.where(nearer, dist, best)
        where = tl.where(nearer, j, where)
    tl.store(labels_ptr + rows, where, mask=live)


def solve(points, centroids, labels, n: int, k: int, d: int):
    BLOCK_D = triton.next_power_of_2(d)
    BLOCK_N = max(1, min(64, 8192 // BLOCK_D))
    assign[(triton.cdiv(n, BLOCK_N),)](points, centroids, labels, n, k, d, BLOCK_N=BLOCK_N, BLOCK_D=BLOCK_D)
