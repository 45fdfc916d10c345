"""K-means assignment, the straightforward way: one program per BLOCK_N points, each point's
row held whole (BLOCK_D, the next power of two of d, masked at d). The program walks the
centroids in order, computes the squared distance of every point to the centroid (differences
squared and summed over the row), and keeps the least distance and its index. A later centroid
replaces the best only when strictly nearer, so of equal distances the first index stays."""

import triton
import triton.language as tl


@triton.jit
def assign(points_ptr, centroids_ptr, labels_ptr, n, k, d, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    dims = tl.arange(0, BLOCK_D)
    live = rows < n
    on_d = dims < d
    x = tl.load(
        points_ptr + rows[:, None].to(tl.int64) * d + dims[None, :],
        mask=live[:, None] & on_d[None, :],
        other=0.0,
    )
    best = tl.full([BLOCK_N], float("inf"), dtype=tl.float32)
    where = tl.zeros([BLOCK_N], dtype=tl.int32)
    for j in range(0, k):
        c = tl.load(centroids_ptr + j * d + dims, mask=on_d, other=0.0)
        diff = x - c[None, :]
        dist = tl.sum(diff * diff, axis=1)
        nearer = dist < best
        best = tl.where(nearer, dist, best)
        where = tl.where(nearer, j, where)
    tl.store(labels_ptr + rows, where, mask=live)


def solve(points, centroids, labels, n: int, k: int, d: int):
    BLOCK_D = triton.next_power_of_2(d)
    BLOCK_N = max(1, min(64, 8192 // BLOCK_D))  # a [BLOCK_N, BLOCK_D] tile of at most 8192
    assign[(triton.cdiv(n, BLOCK_N),)](points, centroids, labels, n, k, d, BLOCK_N=BLOCK_N, BLOCK_D=BLOCK_D)
