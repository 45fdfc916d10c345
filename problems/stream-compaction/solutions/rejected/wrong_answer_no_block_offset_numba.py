# expect: wrong_answer
# Bug: the scatter uses only an element's rank within its own block and forgets to add the
# number kept by the blocks before it: every block writes from out[0], over the others. Right
# only when at most one block keeps anything (n <= 256).
from numba import cuda, int32

THREADS = 256


@cuda.jit(device=True)
def block_scan(s, t):
    """Inclusive scan of the block's shared array s (THREADS values), in place."""
    offset = 1
    while offset < THREADS:
        v = s[t - offset] if t >= offset else 0
        cuda.syncthreads()
        s[t] += v
        cuda.syncthreads()
        offset *= 2


@cuda.jit
def rank_kernel(x, rank, sums, n):
    s = cuda.shared.array(THREADS, int32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    s[t] = 1 if i < n and x[i] > 0 else 0
    cuda.syncthreads()
    block_scan(s, t)
    if i < n:
        rank[i] = s[t]
    if t == THREADS - 1:
        sums[cuda.blockIdx.x] = s[t]


@cuda.jit
def scan_sums(sums, blocks, count):
    s = cuda.shared.array(THREADS, int32)
    t = cuda.threadIdx.x
    seg = (blocks + THREADS - 1) // THREADS
    lo = min(t * seg, blocks)
    hi = min(lo + seg, blocks)
    total = 0
    for j in range(lo, hi):
        total += sums[j]
    s[t] = total
    cuda.syncthreads()
    block_scan(s, t)
    run = s[t] - total
    for j in range(lo, hi):
        run += sums[j]
        sums[j] = run
    if t == THREADS - 1:
        count[0] = s[t]


@cuda.jit
def scatter_kernel(x, rank, sums, out, n):
    i = cuda.grid(1)
    if i < n and x[i] > 0:
        out[rank[i] - 1] = x[i]


_scratch = {}  # the last size's scratch arrays, reused by every call of that size


def scratch(n, blocks, dtype):
    """rank (each element's rank in its block) and sums (one count per block). Allocated once
    per size: a fresh pair per call would pile up in Numba's deferred frees."""
    if _scratch.get("n") != n:
        _scratch.clear()
        _scratch["n"] = n
        _scratch["rank"] = cuda.device_array(n, dtype=dtype)
        _scratch["sums"] = cuda.device_array(blocks, dtype=dtype)
    return _scratch["rank"], _scratch["sums"]


def solve(x, out, count, n):
    blocks = (n + THREADS - 1) // THREADS
    rank, sums = scratch(n, blocks, count.dtype)
    rank_kernel[blocks, THREADS](x, rank, sums, n)
    scan_sums[1, THREADS](sums, blocks, count)
    scatter_kernel[blocks, THREADS](x, rank, sums, out, n)
