# expect: wrong_answer
# Bug: block b adds sums[b] to its elements, the scanned total up to and including itself,
# where it wants sums[b - 1], the total of the blocks before it: an inclusive scan of the block
# totals read as if it were exclusive. Every block but the first counts itself twice.
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
def scan_blocks(x, y, sums, n):
    s = cuda.shared.array(THREADS, int32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    s[t] = x[i] if i < n else 0
    cuda.syncthreads()
    block_scan(s, t)
    if i < n:
        y[i] = s[t]
    if t == THREADS - 1:
        sums[cuda.blockIdx.x] = s[t]


@cuda.jit
def scan_sums(sums, count):
    s = cuda.shared.array(THREADS, int32)
    t = cuda.threadIdx.x
    seg = (count + THREADS - 1) // THREADS
    lo = min(t * seg, count)
    hi = min(lo + seg, count)
    total = 0
    for j in range(lo, hi):
        total += sums[j]
    s[t] = total
    cuda.syncthreads()
    block_scan(s, t)
    run = s[t] - total  # the sum of every segment before this thread's
    for j in range(lo, hi):
        run += sums[j]
        sums[j] = run


@cuda.jit
def add_carry(y, sums, n):
    i = cuda.grid(1)
    b = cuda.blockIdx.x
    if b > 0 and i < n:
        y[i] += sums[b]


def solve(x, y, n):
    blocks = (n + THREADS - 1) // THREADS
    sums = cuda.device_array(blocks, dtype=y.dtype)  # scratch: one total per block
    scan_blocks[blocks, THREADS](x, y, sums, n)
    if blocks > 1:
        scan_sums[1, THREADS](sums, blocks)
        add_carry[blocks, THREADS](y, sums, n)
