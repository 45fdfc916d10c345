// Stable key-value sort, least-significant digit first: four passes of 8-bit digits (half
// the passes, so half the traffic, of 4-bit digits). A tile is 2048 pairs: 8 warps, each
// owning 256 consecutive pairs, read 32 at a time. A pass is three kernels:
//   1. count_digits: each block counts its tile's digits (shared-memory atomics) into the
//      digit-major table counts[digit * tiles + tile];
//   2. scan_rows: block d scans row d (digit d in every tile), exclusive, in place, and
//      writes the row's total: 256 blocks at once instead of one block over the whole table;
//   3. scatter: each block ranks its pairs stably. A warp walks its 256 pairs in order, 32 at
//      a time: __match_any_sync finds the lanes with the same digit, and a per-warp counter
//      per digit carries the count from round to round. The warps' counts, scanned per digit,
//      and the tile's digit counts, scanned over digits, give every pair its place in the
//      tile sorted by digit; the pairs are shuffled there in shared memory and written out
//      from it in order, so consecutive threads write consecutive slots of one digit (runs
//      of ~8 on random keys) instead of 2048 scattered addresses. A pair at tile position p
//      with digit d goes to base[d] + counts[d, tile] + p - tile_start[d], where base[d] (the
//      exclusive scan of the 256 row totals) is recomputed by every block: 256 adds.
// The passes alternate between (keys, vals) and a scratch pair; four is even, so the last
// pass writes into keys and vals.
#include <cuda_runtime.h>

constexpr int THREADS = 256;  // = RADIX: thread t owns digit t where a step is per digit
constexpr int WARPS = THREADS / 32;
constexpr int ROUNDS = 8;  // pairs per lane
constexpr int WARP_ITEMS = 32 * ROUNDS;
constexpr int TILE = WARPS * WARP_ITEMS;
constexpr int RADIX_BITS = 8;
constexpr int RADIX = 1 << RADIX_BITS;
constexpr int SCAN_THREADS = 1024;

// Exclusive scan of one int per thread over a block of THREADS; every thread must call it.
__device__ int block_exclusive_scan(int v, int* tmp) {
    int t = threadIdx.x;
    tmp[t] = v;
    __syncthreads();
    for (int offset = 1; offset < THREADS; offset *= 2) {
        int add = t >= offset ? tmp[t - offset] : 0;
        __syncthreads();
        tmp[t] += add;
        __syncthreads();
    }
    int out = tmp[t] - v;
    __syncthreads();  // tmp may be reused at once
    return out;
}

__global__ void __launch_bounds__(THREADS)
count_digits(const unsigned* __restrict__ keys, int* counts, int n, int tiles, int shift) {
    __shared__ int c[RADIX];
    c[threadIdx.x] = 0;
    __syncthreads();
    long long first = (long long)blockIdx.x * TILE;
#pragma unroll
    for (int r = 0; r < TILE / THREADS; ++r) {
        long long i = first + r * THREADS + threadIdx.x;
        if (i < n) atomicAdd(&c[(keys[i] >> shift) & (RADIX - 1)], 1);
    }
    __syncthreads();
    counts[threadIdx.x * tiles + blockIdx.x] = c[threadIdx.x];
}

__global__ void scan_rows(int* counts, int* totals, int tiles) {
    __shared__ int s[SCAN_THREADS];
    __shared__ int carry;
    int* row = counts + (long long)blockIdx.x * tiles;
    int t = threadIdx.x;
    if (t == 0) carry = 0;
    for (int start = 0; start < tiles; start += SCAN_THREADS) {
        int v = start + t < tiles ? row[start + t] : 0;
        s[t] = v;
        __syncthreads();
        for (int offset = 1; offset < SCAN_THREADS; offset *= 2) {
            int add = t >= offset ? s[t - offset] : 0;
            __syncthreads();
            s[t] += add;
            __syncthreads();
        }
        if (start + t < tiles) row[start + t] = carry + s[t] - v;  // exclusive
        __syncthreads();
        if (t == 0) carry += s[SCAN_THREADS - 1];
        __syncthreads();
    }
    if (t == 0) totals[blockIdx.x] = carry;
}

__global__ void __launch_bounds__(THREADS)
scatter(const unsigned* __restrict__ src_k, const int* __restrict__ src_v, unsigned* dst_k,
        int* dst_v, const int* counts, const int* totals, int n, int tiles, int shift) {
    __shared__ unsigned sk[TILE];
    __shared__ int sv[TILE];
    __shared__ int warp_counts[WARPS][RADIX];  // per warp and digit: running count, then offset
    __shared__ int tile_start[RADIX];          // where each digit starts in the sorted tile
    __shared__ int out_base[RADIX];            // where each digit of this tile starts in dst
    __shared__ int tmp[THREADS];
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    const long long first = (long long)blockIdx.x * TILE;
    const int live_count = (int)min((long long)TILE, n - first);

    int base = block_exclusive_scan(totals[t], tmp);  // digit t's first slot in dst
    out_base[t] = base + counts[t * tiles + blockIdx.x];
#pragma unroll
    for (int w = 0; w < WARPS; ++w) warp_counts[w][t] = 0;
    __syncthreads();

    unsigned k[ROUNDS];
    int v[ROUNDS], rank[ROUNDS];
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        int local = warp * WARP_ITEMS + r * 32 + lane;
        bool live = local < live_count;
        k[r] = live ? src_k[first + local] : 0u;
        v[r] = live ? src_v[first + local] : 0;
        int d = (k[r] >> shift) & (RADIX - 1);
        unsigned peers = __match_any_sync(0xffffffffu, live ? d : RADIX);  // RADIX: past n
        int before = live ? warp_counts[warp][d] : 0;
        rank[r] = before + __popc(peers & ((1u << lane) - 1u));
        __syncwarp();  // every lane has read the count before the leader moves it on
        if (live && lane == 31 - __clz(peers)) warp_counts[warp][d] = before + __popc(peers);
        __syncwarp();
    }
    __syncthreads();

    // Thread t, for digit t: the warps' counts become each warp's offset within the digit.
    int running = 0;
#pragma unroll
    for (int w = 0; w < WARPS; ++w) {
        int c = warp_counts[w][t];
        warp_counts[w][t] = running;
        running += c;
    }
    tile_start[t] = block_exclusive_scan(running, tmp);
    __syncthreads();  // every digit's start and warp offsets are in place

#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        int local = warp * WARP_ITEMS + r * 32 + lane;
        if (local < live_count) {
            int d = (k[r] >> shift) & (RADIX - 1);
            int pos = tile_start[d] + warp_counts[warp][d] + rank[r];
            sk[pos] = k[r];
            sv[pos] = v[r];
        }
    }
    __syncthreads();

    for (int p = t; p < live_count; p += THREADS) {
        unsigned key = sk[p];
        int d = (key >> shift) & (RADIX - 1);
        int slot = out_base[d] + p - tile_start[d];
        dst_k[slot] = key;
        dst_v[slot] = sv[p];
    }
}

extern "C" void solve(unsigned int* keys, int* vals, int n) {
    static unsigned* tmp_k = nullptr;
    static int* tmp_v = nullptr;
    static int* counts = nullptr;  // RADIX x tiles, then RADIX row totals
    static int capacity = 0;
    int tiles = (n + TILE - 1) / TILE;
    if (n > capacity) {
        if (tmp_k) {
            cudaFree(tmp_k);
            cudaFree(tmp_v);
            cudaFree(counts);
        }
        cudaMalloc(&tmp_k, (size_t)n * sizeof(unsigned));
        cudaMalloc(&tmp_v, (size_t)n * sizeof(int));
        cudaMalloc(&counts, ((size_t)RADIX * tiles + RADIX) * sizeof(int));
        capacity = n;
    }
    int* totals = counts + (size_t)RADIX * tiles;
    unsigned *sk = keys, *dk = tmp_k;
    int *sv = vals, *dv = tmp_v;
    for (int shift = 0; shift < 32; shift += RADIX_BITS) {
        count_digits<<<tiles, THREADS>>>(sk, counts, n, tiles, shift);
        scan_rows<<<RADIX, SCAN_THREADS>>>(counts, totals, tiles);
        scatter<<<tiles, THREADS>>>(sk, sv, dk, dv, counts, totals, n, tiles, shift);
        unsigned* tk = sk;
        sk = dk;
        dk = tk;
        int* tv = sv;
        sv = dv;
        dv = tv;
    }
}
