# expect: wrong_answer
# Bug: the GEMM-form kernel walks d in chunks of 32 and masks the rows (points past n,
# centroids past k) but not the dimensions. When 32 does not divide d, the last chunk reads
# past the end of each row, into the next row's first coordinates (and past the last row into
# whatever follows), and adds them into x.c and |c|^2. Right only when d is a multiple of 32.
# The fix: mask dims < d on both loads.
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
            x = tl.load(points_ptr + rows[:, None] * d + dims[None, :], mask=live[:, None], other=0.0)  # BUG
            c = tl.load(centroids_ptr + js[:, None] * d + dims[None, :], mask=on_k[:, None], other=0.0)  # BUG
            dot = tl.dot(x, tl.trans(c), dot)
            cn += tl.sum(c * c, axis=1)
        score = tl.where(on_k[None, :], cn[None, :] - 2.0 * dot, float("inf"))
        least = tl.min(score, axis=1)
        first = tl.min(tl.where(score == least[:, None], js[None, :], k), axis=1)
        nearer = least < best
        best = tl.where(nearer, least, best)
        where = tl.where(nearer, first, where)
    tl.store(labels_ptr + rows, where, mask=live)


def solve(points, centroids, labels, n: int, k: int, d: int):
    assign[(triton.cdiv(n, 64),)](points, centroids, labels, n, k, d, BLOCK_N=64, BLOCK_K=32, BLOCK_D=32)
