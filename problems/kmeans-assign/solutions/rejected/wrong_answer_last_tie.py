# expect: wrong_answer
# expect-message: values differ
# Bug: `<=` where `<` belongs: a later centroid at the same distance replaces the best, so of
# equal distances the last index wins. Right whenever no point is equally near two
# centroids, which random floats make look like always. The fix: replace only when strictly
# nearer (or, merging blocks, compare indices on equal distances).
import triton
import triton.language as tl


@triton.jit
def assign(points_ptr, centroids_ptr, labels_ptr, n, k, d, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    dims = tl.arange(0, BLOCK_D)
    live = rows < n
    on_d = dims < d
    x = tl.load(points_ptr + rows[:, None] * d + dims[None, :], mask=live[:, None] & on_d[None, :], other=0.0)
    best = tl.full([BLOCK_N], float("inf"), dtype=tl.float32)
    where = tl.zeros([BLOCK_N], dtype=tl.int32)
    for j in range(0, k):
        c = tl.load(centroids_ptr + j * d + dims, mask=on_d, other=0.0)
        diff = x - c[None, :]
        dist = tl.sum(diff * diff, axis=1)
        nearer = dist <= best  # BUG: a tie goes to the later centroid
        best = tl.where(nearer, dist, best)
        where = tl.where(nearer, j, where)
    tl.store(labels_ptr + rows, where, mask=live)


def solve(points, centroids, labels, n: int, k: int, d: int):
    BLOCK_D = triton.next_power_of_2(d)
    BLOCK_N = max(1, min(64, 8192 // BLOCK_D))
    assign[(triton.cdiv(n, BLOCK_N),)](points, centroids, labels, n, k, d, BLOCK_N=BLOCK_N, BLOCK_D=BLOCK_D)
