// Stream compaction in one pass: tiles of 4096 floats (256 threads x 16 consecutive, loaded
// as four float4), kept counts scanned across tiles with decoupled look-back, and the kept
// values staged in shared memory so the tile writes its run of out contiguously.
//
// Per tile: each thread counts its kept values; a warp scans the thread counts with shuffles,
// warp 0 the warp counts; the tile publishes its count at once, then warp 0 looks back over
// earlier tiles' states 32 at a time (nearest inclusive total plus the counts after it) to
// learn where its run starts. Threads place their kept values, in input order, into shared
// memory at their rank within the tile; the block then copies that run to out[start ...]
// with consecutive threads writing consecutive floats. The last tile writes count.
//
// Tiles are numbered by an atomic ticket in the order blocks start, so waiting on earlier
// tiles cannot deadlock. A tile's state is one 64-bit word (flag high: 1 count, 2 inclusive
// total; value low) written by one atomicExch.
#include <cuda_runtime.h>

constexpr int THREADS = 256;
constexpr int ITEMS = 16;
constexpr int TILE = THREADS * ITEMS;
constexpr unsigned long long AGGREGATE = 1ull << 32;
constexpr unsigned long long PREFIX = 2ull << 32;

__device__ __forceinline__ int warp_inclusive(int v) {
    int lane = threadIdx.x & 31;
#pragma unroll
    for (int off = 1; off < 32; off *= 2) {
        int u = __shfl_up_sync(0xffffffffu, v, off);
        if (lane >= off) v += u;
    }
    return v;
}

__device__ __forceinline__ unsigned long long read_state(const unsigned long long* p) {
    return *reinterpret_cast<const volatile unsigned long long*>(p);
}

// How many values all tiles before `tile` keep (warp 0 only; all its lanes call it).
__device__ int look_back(unsigned long long* state, long long tile) {
    int lane = threadIdx.x & 31;
    int sum = 0;
    long long end = tile;
    while (true) {
        long long j = end - 1 - lane;
        unsigned long long s = j >= 0 ? read_state(state + j) : PREFIX;  // before tile 0: 0
        unsigned flag = (unsigned)(s >> 32);
        unsigned prefixes = __ballot_sync(0xffffffffu, flag == 2);
        unsigned empty = __ballot_sync(0xffffffffu, flag == 0);
        int stop = prefixes ? __ffs(prefixes) - 1 : 31;
        unsigned needed = stop == 31 ? 0xffffffffu : (1u << (stop + 1)) - 1;
        if (empty & needed) continue;  // a tile on the way has published nothing yet
        int v = lane <= stop ? (int)(unsigned)s : 0;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
        sum += v;
        if (prefixes) return sum;
        end -= 32;
    }
}

__global__ void __launch_bounds__(THREADS) compact(const float* __restrict__ x,
                                                   float* __restrict__ out, int* count,
                                                   unsigned long long* state, int n) {
    __shared__ float staged[TILE];
    __shared__ int warp_counts[THREADS / 32];
    __shared__ long long tile_s;
    __shared__ int start_s, kept_s;
    const int tiles = (n + TILE - 1) / TILE;
    unsigned int* ticket = reinterpret_cast<unsigned int*>(state + tiles);
    if (threadIdx.x == 0) tile_s = atomicAdd(ticket, 1u);
    __syncthreads();
    const long long tile = tile_s;
    const long long base = tile * TILE + (long long)threadIdx.x * ITEMS;

    float v[ITEMS];
    if (tile * TILE + TILE <= n) {
        const float4* src = reinterpret_cast<const float4*>(x + base);
#pragma unroll
        for (int q = 0; q < ITEMS / 4; ++q) {
            float4 w = __ldcs(src + q);
            v[4 * q] = w.x;
            v[4 * q + 1] = w.y;
            v[4 * q + 2] = w.z;
            v[4 * q + 3] = w.w;
        }
    } else {
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) v[k] = base + k < n ? x[base + k] : 0.0f;
    }
    int mine = 0;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) mine += v[k] > 0.0f;  // NaN and zeros are not > 0

    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int inc = warp_inclusive(mine);
    if (lane == 31) warp_counts[warp] = inc;
    __syncthreads();
    if (warp == 0) {
        int c = lane < THREADS / 32 ? warp_counts[lane] : 0;
        int scanned = warp_inclusive(c);
        if (lane < THREADS / 32) warp_counts[lane] = scanned - c;
        int kept = __shfl_sync(0xffffffffu, scanned, THREADS / 32 - 1);
        int start = 0;
        if (tile == 0) {
            if (lane == 0) atomicExch(state, PREFIX | (unsigned)kept);
        } else {
            if (lane == 0) atomicExch(state + tile, AGGREGATE | (unsigned)kept);
            start = look_back(state, tile);
            if (lane == 0) atomicExch(state + tile, PREFIX | (unsigned)(start + kept));
        }
        if (lane == 0) {
            start_s = start;
            kept_s = kept;
            if (tile == tiles - 1) *count = start + kept;
        }
    }
    __syncthreads();
    int rank = warp_counts[warp] + inc - mine;  // kept values before this thread's, in the tile
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        if (v[k] > 0.0f) staged[rank++] = v[k];
    }
    __syncthreads();
    float* dst = out + start_s;
    for (int i = threadIdx.x; i < kept_s; i += THREADS) dst[i] = staged[i];
}

extern "C" void solve(const float* x, float* out, int* count, int n) {
    static unsigned long long* state = nullptr;
    static int capacity = 0;
    int tiles = (n + TILE - 1) / TILE;
    if (tiles > capacity) {
        if (state) cudaFree(state);
        cudaMalloc(&state, (size_t)(tiles + 1) * sizeof(unsigned long long));
        capacity = tiles;
    }
    cudaMemsetAsync(state, 0, (size_t)(tiles + 1) * sizeof(unsigned long long));
    compact<<<tiles, THREADS>>>(x, out, count, state, n);
}
