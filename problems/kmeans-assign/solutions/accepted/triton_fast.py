"""K-means assignment in the GEMM form, on tensor cores. Since |x - c|^2 = |x|^2 - 2 x.c + |c|^2
and |x|^2 is the same for every centroid of a point, the nearest centroid minimises
s_j = |c_j|^2 - 2 x.c_j: for a tile of BLOCK_N points and BLOCK_K centroids the x.c products
are one matrix product, accumulated over d in chunks of BLOCK_D with tl.dot, while |c_j|^2 is
summed from the same centroid chunks. Each tile's least score per point, and the smallest
index that reaches it, then meets the running best of the earlier tiles; a later tile (higher
indices) wins only when strictly smaller, so ties go to the lowest index. On these inputs
every score is exact in float32 and every operand exact in TF32 (problem.toml), so the
tensor cores' TF32 products lose nothing."""

import triton
import triton.language as tl


@triton.jit
def assign(
    points_ptr, centroids_ptr, labels_ptr, n, k, d,
    BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_D: tl.constexpr,
):
    rows = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    live = rows < n
    best = tl.full([BLOCK_N], float("inf"), dtype=tl.float32)
    where = tl.zeros([BLOCK_N], dtype=tl.int32)
    for j0 in range(0, k, BLOCK_K):
        js = j0 + tl.arange(0, BLOCK_K)
        on_k = js < k
        dot = tl.zeros([BLOCK_N, BLOCK_K], dtype=tl.float32)
        cn = tl.zeros([BLOCK_K], dtype=tl.float32)
        for d0 in range(0, d, BLOCK_D):
            dims = d0 + tl.arange(0, BLOCK_D)
            on_d = dims < d
            x = tl.load(
                points_ptr + rows[:, None].to(tl.int64) * d + dims[None, :],
                mask=live[:, None] & on_d[None, :],
                other=0.0,
            )
            c = tl.load(
                centroids_ptr + js[:, None].to(tl.int64) * d + dims[None, :],
                mask=on_k[:, None] & on_d[None, :],
                other=0.0,
            )
            dot = tl.dot(x, tl.trans(c), dot)
            cn += tl.sum(c * c, axis=1)
        score = cn[None, :] - 2.0 * dot
        score = tl.where(on_k[None, :], score, float("inf"))
        least = tl.min(score, axis=1)
        first = tl.min(tl.where(score == least[:, None], js[None, :], k), axis=1)
        nearer = least < best
        best = tl.where(nearer, least, best)
        where = tl.where(nearer, first, where)
    tl.store(labels_ptr + rows, where, mask=live)


def solve(points, centroids, labels, n: int, k: int, d: int):
    BLOCK_N, BLOCK_K, BLOCK_D = 128, 64, 32
    assign[(triton.cdiv(n, BLOCK_N),)](
        points, centroids, labels, n, k, d,
        BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, BLOCK_D=BLOCK_D, num_warps=8, num_stages=3,
    )
