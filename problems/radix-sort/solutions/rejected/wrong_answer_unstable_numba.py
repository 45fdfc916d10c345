# expect: wrong_answer
# Bug: the scatter walks each tile from its end (as the textbook counting sort does) but takes
# slots from the front of its digit's range (which only the forward walk may). Within a tile,
# equal digits come out reversed: the pass is not stable, and equal keys lose their values'
# input order (earlier passes' order too, so even distinct keys end up unsorted).
from numba import cuda, int32

BITS = 4
DIGITS = 1 << BITS
TILE = 256  # elements per thread
THREADS = 128  # threads per block in the count and scatter kernels, at most
SCAN_MAX = 1024  # threads of the scan's one block, at most


@cuda.jit
def count_kernel(keys, counts, n, shift, tiles):
    tile = cuda.grid(1)
    if tile >= tiles:
        return
    c = cuda.local.array(DIGITS, int32)
    for d in range(DIGITS):
        c[d] = 0
    for i in range(tile * TILE, min(tile * TILE + TILE, n)):
        c[(keys[i] >> shift) & (DIGITS - 1)] += 1
    for d in range(DIGITS):
        counts[d * tiles + tile] = c[d]


@cuda.jit
def exclusive_scan(flat, total):
    """flat (total values) becomes its exclusive running sums, in place."""
    s = cuda.shared.array(SCAN_MAX, int32)
    t = cuda.threadIdx.x
    threads = cuda.blockDim.x  # a power of two
    seg = (total + threads - 1) // threads
    lo = min(t * seg, total)
    hi = min(lo + seg, total)
    mine = 0
    for j in range(lo, hi):
        mine += flat[j]
    s[t] = mine
    cuda.syncthreads()
    offset = 1
    while offset < threads:
        v = s[t - offset] if t >= offset else 0
        cuda.syncthreads()
        s[t] += v
        cuda.syncthreads()
        offset *= 2
    run = s[t] - mine
    for j in range(lo, hi):
        c = flat[j]
        flat[j] = run
        run += c


@cuda.jit
def scatter_kernel(keys, vals, keys_out, vals_out, offsets, n, shift, tiles):
    tile = cuda.grid(1)
    if tile >= tiles:
        return
    nxt = cuda.local.array(DIGITS, int32)
    for d in range(DIGITS):
        nxt[d] = offsets[d * tiles + tile]
    for i in range(min(tile * TILE + TILE, n) - 1, tile * TILE - 1, -1):
        k = keys[i]
        d = (k >> shift) & (DIGITS - 1)
        keys_out[nxt[d]] = k
        vals_out[nxt[d]] = vals[i]
        nxt[d] += 1


_scratch = {}  # the last size's scratch arrays, reused by every call of that size


def scratch(keys, vals, tiles):
    """A second pair of arrays to scatter into, and counts[digit * tiles + tile]. Allocated once
    per size: a fresh set per call would pile up in Numba's deferred frees."""
    n = keys.shape[0]
    if _scratch.get("n") != n:
        _scratch.clear()
        _scratch["n"] = n
        _scratch["keys"] = cuda.device_array_like(keys)
        _scratch["vals"] = cuda.device_array_like(vals)
        _scratch["counts"] = cuda.device_array(DIGITS * tiles, dtype=vals.dtype)
    return _scratch["keys"], _scratch["vals"], _scratch["counts"]


def solve(keys, vals, n):
    tiles = (n + TILE - 1) // TILE
    threads = min(THREADS, tiles)
    blocks = (tiles + threads - 1) // threads
    scan_threads = 1  # about 16 counts per scan thread, as a power of two
    while scan_threads < min(SCAN_MAX, DIGITS * tiles // 16):
        scan_threads *= 2
    keys2, vals2, counts = scratch(keys, vals, tiles)
    src = (keys, vals)
    dst = (keys2, vals2)
    for shift in range(0, 32, BITS):
        count_kernel[blocks, threads](src[0], counts, n, shift, tiles)
        exclusive_scan[1, scan_threads](counts, DIGITS * tiles)
        scatter_kernel[blocks, threads](src[0], src[1], dst[0], dst[1], counts, n, shift, tiles)
        src, dst = dst, src
